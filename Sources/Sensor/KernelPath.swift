/// Which implementation of a pass runs: the fast one, or the plain reference it is tested against.
package enum KernelPath: Sendable { case fast, reference }
