import Testing

/// Every conformance test of the drop-in modules. The tests use Apple's names only, so they share
/// the process's one emulated iPhone, as apps on a phone share its cameras: they run one at a time,
/// so that no test sees another's session, format or lock.
@Suite(.serialized) struct DropIn {}
