import Foundation
import ObscuraSupport
import Scenes

/// The narrated trace of `obscura explain`: for each step, the calls, the state they changed,
/// the spec sections whose rules were checked, why an exception fired, and what was delivered.
public enum Narration {
    /// The narration of a run, as lines of text.
    ///
    /// Text that comes from the scenario file (its name, description, paths, values, and the messages
    /// that quote them) is escaped piece by piece (`TextExcerpt`), so a shared file cannot add lines,
    /// drive the terminal, or issue commands to a CI log.
    public static func narrate(_ scenario: Scenario, _ result: ScenarioResult) -> String {
        func t(_ text: String) -> String { TextExcerpt.make(text, limit: 2000) }
        var out: [String] = []
        out.append("Scenario \(t(result.name)) (\(t(scenario.file)))")
        if let d = result.description { out.append(t(d)) }
        out.append(
            "Device \(t(result.device)), scene \(t(result.scene)), seed \(result.seed), \(t(result.clock)) clock.")
        if let footage = scenario.sceneValue.footage, footage.mode == .direct {
            out.append(
                Footage.directModeSummary
                    + (footage.depth == nil
                        ? " Depth cameras deliver no depth for it."
                        : " Depth outputs deliver the depth given with the footage."))
        }
        out.append(
            "Rules are cited to the Capture rules article and tagged [D] documented by Apple, [O] observed on "
                + "devices, or [I] inferred (Obscura's choice).")
        // spec §21: the faults wait for their moment; each is narrated again, with its rule, under the step
        // whose stream reached it.
        for fault in scenario.faults {
            out.append("Fault scheduled \(t(fault.summary)) (\(t(fault.location.description))); spec §21.")
        }
        out.append("")
        // Places are named as the user named the file (`mine/x.scenario.yaml:12:5`), so an editor opens them.
        var given = result
        given.givenFile = scenario.file
        func located(_ location: String) -> String { given.locatedAsGiven(location) }
        for (entry, step) in zip(scenario.steps, result.steps) {
            out.append(
                "Step \(step.index) — \(t(step.key)) (\(t(located(step.location)))): \(type(of: entry.step).summary).")
            for call in step.apiCalls { out.append("    \(t(call))") }
            let changed = step.after.keys.sorted().filter { step.before[$0] != step.after[$0] }
            if changed.isEmpty {
                out.append("  State: unchanged.")
            } else {
                for key in changed {
                    out.append(
                        "  State: \(t(key)) \(t(step.before[key] ?? "(none)")) → \(t(step.after[key] ?? "(none)"))")
                }
            }
            // Capture rules by section (§1.3, the Capture rules article); other articles by name.
            let sections = step.specSections.filter { $0.hasPrefix("§") }
            var named = step.specSections.filter { !$0.hasPrefix("§") }
            if !sections.isEmpty { named.insert("Capture rules " + sections.joined(separator: ", "), at: 0) }
            if !named.isEmpty { out.append("  Rules checked: \(named.joined(separator: "; ")).") }
            for rule in step.rules {
                let number = rule.rule.map { " rule \($0)" } ?? ""
                let verb = rule.outcome == "passed" ? "passed" : rule.outcome == "raised" ? "RAISED" : "decided"
                out.append("    \(rule.section)\(number) \(verb): \(t(rule.sentence))")
            }
            for note in step.notes { out.append("  \(t(note))") }
            out.append(contentsOf: flashStory(step))
            if let e = step.exception {
                out.append("  Raised \(t(e.name)): \(t(e.reason))")
                out.append("  Why: \(t(e.rule ?? "no rule recorded")). The call had no effect, as with @try.")
            }
            if let f = step.failure { out.append("  The step could not run: \(t(f))") }
            if !step.callbacks.isEmpty {
                out.append("  Delegate: " + step.callbacks.map(\.name).joined(separator: " → ")
                    + " (spec §6: willBeginCapture first, didFinishCapture last).")
            }
            for photo in step.photos {
                // The fallback of a Constant Color capture is the ambient frame, taken before the flash
                // fired: its settings say the flash was enabled for the capture, but not for this picture.
                var line = "  Photo \(photo.photoCount): \(photo.dimensions), "
                if photo.isConstantColorFallbackPhoto {
                    line += "taken without the flash: the Constant Color fallback (ambient) photo"
                } else {
                    line += "flash " + (photo.isFlashEnabled ? "fired" : "did not fire")
                }
                if photo.constantColorConfidenceLevel > 0 {
                    line += String(format: ", confidence %.3f", photo.constantColorConfidenceLevel)
                }
                out.append(line + ".")
            }
            for n in step.notifications { out.append("  Notification: \(t(n))") }
            for r in step.expectations {
                out.append("  \(r.passed ? "✓" : "✗") \(t(r.key)): expected \(t(r.expected)); got \(t(r.actual))")
            }
            out.append("")
        }
        let failed = result.failures.count
        out.append(failed == 0 ? "All \(result.expectations.count) expectations held."
            : "\(failed) of \(result.expectations.count) expectations failed.")
        return out.joined(separator: "\n") + "\n"
    }

    /// What the flash did: its decision from the trace, and the photos' mean brightness with and
    /// without it when the step delivered both (a Constant Color photo and its ambient fallback).
    static func flashStory(_ step: ScenarioResult.StepResult) -> [String] {
        guard !step.photos.isEmpty else { return [] }
        var lines: [String] = []
        let lit = step.photos.filter { $0.isFlashEnabled && !$0.isConstantColorFallbackPhoto }
        let unlit = step.photos.filter { !$0.isFlashEnabled || $0.isConstantColorFallbackPhoto }
        lines.append("  Flash: " + (lit.isEmpty ? "did not fire" : "fired")
            + (step.photos.count > 1 ? " (in \(lit.count) of \(step.photos.count) photos)" : "") + ".")
        func mean(_ p: ScenarioResult.PhotoSummary) -> String {
            p.meanSignal.map { String(format: "%.1f", $0) } ?? "n/a"
        }
        if let withFlash = step.photos.first(where: { $0.isFlashEnabled && !$0.isConstantColorFallbackPhoto }),
            let without = unlit.first(where: { $0.isConstantColorFallbackPhoto })
        {
            lines.append("  Pixels: mean signal (8-bit, all channels) \(mean(withFlash)) with the flash "
                + "(photo \(withFlash.photoCount)) and \(mean(without)) without it (the ambient fallback, photo "
                + "\(without.photoCount)).")
        } else {
            for p in step.photos { lines.append("  Pixels: photo \(p.photoCount) mean signal \(mean(p)) (8-bit).") }
        }
        return lines
    }
}
