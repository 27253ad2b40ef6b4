/// Which part of a person an object is: what portrait effects and semantic segmentation mattes
/// are drawn from.
///
/// Every part belongs to the person, so the portrait effects matte covers all of them; `skin`,
/// `hair`, `teeth` and `glasses` each also have a semantic segmentation matte of their own.
/// `body` is the rest of a person (clothes, a torso) that no finer matte covers.
public enum PersonPart: String, Sendable, Hashable, CaseIterable, Codable {
    case body
    case skin
    case hair
    case teeth
    case glasses
}
