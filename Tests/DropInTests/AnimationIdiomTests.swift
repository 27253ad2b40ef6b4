import Foundation
import QuartzCore
import Testing

// Animations as capture apps run them over the preview: a focus square that fades, a shutter flash, a pulsing
// indicator, a spring. Values are checked against closed forms (straight lines, cubic Béziers solved here by
// sampling, a damped oscillator) and the timing against the host clock (Capture rules §19.4).

/// Records what an animation's delegate hears, and where.
private final class AnimationLog: NSObject, CAAnimationDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []
    private var mainQueue: [Bool] = []
    private(set) var stopTime: CFTimeInterval = 0
    let stopped = DispatchSemaphore(value: 0)

    var all: [String] { lock.withLock { events } }
    var allOnMainQueue: Bool { lock.withLock { mainQueue.allSatisfy { $0 } } }

    func animationDidStart(_ anim: CAAnimation) { note("start \(anim.value(forKey: "tag") ?? "")") }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        note("stop \(anim.value(forKey: "tag") ?? "") \(flag)")
        lock.withLock { stopTime = CACurrentMediaTime() }
        stopped.signal()
    }

    private func note(_ event: String) {
        let main = DispatchQueue.getSpecific(key: mainQueueKey) == true
        lock.withLock {
            events.append(event)
            mainQueue.append(main)
        }
    }
}

/// The point at `s` of the cubic Bézier from 0 to 1 with inner control values `a` and `b`.
private func bezier(_ a: Double, _ b: Double, _ s: Double) -> Double {
    3 * (1 - s) * (1 - s) * s * a + 3 * (1 - s) * s * s * b + s * s * s
}

/// A fade from opaque to clear over `duration` seconds, telling `log`, tagged `tag`: the focus square's and the
/// recording indicator's animation.
private func fadeOut(duration: CFTimeInterval, log: AnimationLog, tag: String) -> CABasicAnimation {
    let fade = CABasicAnimation(keyPath: "opacity")
    fade.fromValue = 1
    fade.toValue = 0
    fade.duration = duration
    fade.delegate = log
    fade.setValue(tag, forKey: "tag")
    return fade
}

extension DropIn {
    @Suite struct AnimationIdiomTests {
        // A focus square fades out: the layer keeps its model opacity, its presentation fades along a straight
        // line in time, and the delegate hears of the start and then the end, on the main queue, after which the
        // animation has left the layer.
        @Test func aFadePlaysOnTheHostClockAndLeavesAtItsEnd() throws {
            let square = CALayer()
            square.opacity = 1
            let log = AnimationLog()
            let fade = fadeOut(duration: 0.4, log: log, tag: "fade")
            let added = CACurrentMediaTime()
            square.add(fade, forKey: "fade")
            let playing = try #require(square.animation(forKey: "fade"))
            #expect(playing !== fade, "the layer plays a copy")
            #expect(abs(playing.beginTime - added) < 0.05)
            #expect(square.animationKeys() == ["fade"])
            fade.toValue = 0.5  // changing the original after adding does not change what plays
            #expect((playing as? CABasicAnimation)?.toValue as? Int == 0)

            Thread.sleep(forTimeInterval: 0.15)
            let before = CACurrentMediaTime()
            let seen = try #require(square.presentation()).opacity
            let after = CACurrentMediaTime()
            let line = { (t: Double) in 1 - (t - playing.beginTime) / 0.4 }
            #expect(Double(seen) <= line(before) + 1e-6 && Double(seen) >= line(after) - 1e-6, "\(seen)")
            #expect(square.opacity == 1, "the model value stays")

            #expect(log.stopped.wait(timeout: .now() + 5) == .success)
            #expect(log.all == ["start fade", "stop fade true"])
            #expect(log.allOnMainQueue)
            #expect(log.stopTime - playing.beginTime >= 0.4 - 0.01)
            #expect(square.animation(forKey: "fade") == nil && square.animationKeys() == nil)
            #expect(square.presentation()?.opacity == 1)
        }

        // An animation removed before its end, or replaced by another under its key, stops unfinished.
        @Test func removedOrReplacedAnimationsStopUnfinished() {
            let layer = CALayer()
            let log = AnimationLog()
            let pulse = CABasicAnimation(keyPath: "transform.scale")
            pulse.toValue = 1.2
            pulse.duration = 10
            pulse.delegate = log
            pulse.setValue("pulse", forKey: "tag")
            layer.add(pulse, forKey: "pulse")
            layer.removeAnimation(forKey: "pulse")
            #expect(log.stopped.wait(timeout: .now() + 5) == .success)
            #expect(log.all.last == "stop pulse false")
            #expect(layer.animationKeys() == nil)

            let second = AnimationLog()
            pulse.delegate = second
            layer.add(pulse, forKey: "pulse")
            layer.add(CABasicAnimation(keyPath: "opacity"), forKey: "pulse")
            #expect(second.stopped.wait(timeout: .now() + 5) == .success)
            #expect(second.all.last == "stop pulse false")
            #expect(layer.animationKeys() == ["pulse"])
            layer.removeAllAnimations()
            #expect(layer.animationKeys() == nil)
        }

        // The idiom for keeping an animation's end: not removed on completion, filling forwards. The model keeps
        // its value; the presentation holds the end.
        @Test func fillForwardsHoldsTheEndWhileTheModelKeepsItsValue() throws {
            let flash = CALayer()
            flash.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0)
            let log = AnimationLog()
            let show = CABasicAnimation(keyPath: "backgroundColor")
            show.toValue = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            show.duration = 0.05
            show.fillMode = .forwards
            show.isRemovedOnCompletion = false
            show.delegate = log
            show.setValue("flash", forKey: "tag")
            flash.add(show, forKey: "flash")
            #expect(log.stopped.wait(timeout: .now() + 5) == .success)
            #expect(log.all == ["start flash", "stop flash true"])
            #expect(flash.animationKeys() == ["flash"])
            #expect(try #require(flash.presentation()?.backgroundColor).alpha == 1)
            #expect(flash.backgroundColor?.alpha == 0)
        }

        // A paused animation (speed 0) shows the frame of its time offset, which makes the curves exact to check.
        // Ease-in-ease-out is symmetric: half the change at half the time. Ease-in's value at half the time is the
        // Bézier through Apple's control points (0.42, 0) and (1, 1), solved here by sampling.
        @Test func timingCurvesFollowTheirControlPoints() throws {
            func opacity(_ name: CAMediaTimingFunctionName, atFraction t: Double) throws -> Double {
                let layer = CALayer()
                let animation = CABasicAnimation(keyPath: "opacity")
                animation.fromValue = 0
                animation.toValue = 1
                animation.duration = 2
                animation.speed = 0
                animation.timeOffset = 2 * t
                animation.timingFunction = CAMediaTimingFunction(name: name)
                layer.add(animation, forKey: nil)
                return Double(try #require(layer.presentation()).opacity)
            }
            #expect(abs(try opacity(.easeInEaseOut, atFraction: 0.5) - 0.5) < 1e-4)
            #expect(abs(try opacity(.linear, atFraction: 0.3) - 0.3) < 1e-4)
            let s = stride(from: 0.0, through: 1, by: 1e-5).min {
                abs(bezier(0.42, 1, $0) - 0.5) < abs(bezier(0.42, 1, $1) - 0.5)
            }!
            #expect(abs(try opacity(.easeIn, atFraction: 0.5) - bezier(0, 1, s)) < 1e-3)

            var point: [Float] = [0, 0]
            CAMediaTimingFunction(name: .easeOut).getControlPoint(at: 2, values: &point)
            #expect(point == [0.58, 1])
        }

        // Keyframes: values reached at their key times with straight lines between; discrete values hold over their
        // intervals; a path's corners are visited at an even pace.
        @Test func keyframesReachTheirValuesAtTheirKeyTimes() throws {
            func presented(_ animation: CAAnimation, atFraction t: Double, keyPath: String) throws -> Any? {
                let layer = CALayer()
                animation.duration = 1
                animation.speed = 0
                animation.timeOffset = t
                layer.add(animation, forKey: "k")
                return try #require(layer.presentation()).value(forKeyPath: keyPath)
            }
            let shake = CAKeyframeAnimation(keyPath: "position.x")
            shake.values = [0, 10, 5]
            shake.keyTimes = [0, 0.25, 1]
            #expect(try presented(shake, atFraction: 0.625, keyPath: "position.x") as? Double == 7.5)
            #expect(try presented(shake, atFraction: 0.125, keyPath: "position.x") as? Double == 5)
            shake.calculationMode = .discrete
            shake.keyTimes = nil
            #expect(try presented(shake, atFraction: 0.5, keyPath: "position.x") as? Double == 10)

            let route = CGMutablePath()
            route.addLines(between: [CGPoint(x: 0, y: 0), CGPoint(x: 30, y: 0), CGPoint(x: 30, y: 10)])
            let along = CAKeyframeAnimation(keyPath: "position")
            along.path = route
            // 40 points of path: half the time is 20 points along, on the first side.
            let halfway = try #require(try presented(along, atFraction: 0.5, keyPath: "position") as? CGPoint)
            #expect(abs(halfway.x - 20) < 1e-9 && halfway.y == 0, "\(halfway)")
        }

        // A spring follows the damped oscillator m·x″ + c·x′ + k·x = 0 released at rest: with Core Animation's
        // defaults (m 1, k 100, c 10) the damping ratio is 0.5 and it overshoots its end.
        @Test func aSpringFollowsTheDampedOscillator() throws {
            let spring = CASpringAnimation(keyPath: "position.y")
            #expect(spring.mass == 1 && spring.stiffness == 100 && spring.damping == 10 && spring.initialVelocity == 0)
            spring.fromValue = 0
            spring.toValue = 100
            spring.duration = spring.settlingDuration
            spring.speed = 0
            let (omega0, zeta) = (10.0, 0.5)
            let omegaD = omega0 * (1 - zeta * zeta).squareRoot()
            for t in [0.1, 0.3, 0.6] {
                let layer = CALayer()
                spring.timeOffset = t
                layer.add(spring, forKey: "bounce")
                let y = Double(try #require(layer.presentation()).position.y)
                let distance = exp(-zeta * omega0 * t) * (cos(omegaD * t) + zeta * omega0 / omegaD * sin(omegaD * t))
                #expect(abs(y - 100 * (1 - distance)) < 1e-6, "t \(t): \(y)")
            }
            // The first overshoot peaks at t = π / ω_d, past the end by exp(−ζπ / √(1 − ζ²)), about 16 %.
            let layer = CALayer()
            spring.timeOffset = Double.pi / omegaD
            layer.add(spring, forKey: "bounce")
            let peak = Double(try #require(layer.presentation()).position.y)
            #expect(abs(peak - 100 * (1 + exp(-zeta * Double.pi / (1 - zeta * zeta).squareRoot()))) < 1e-6)
            #expect(spring.settlingDuration > 1 && spring.settlingDuration < 2)
        }

        // A group plays its children on its own clock: a shutter button shrinks and dims together.
        @Test func aGroupPlaysItsChildrenTogether() throws {
            let button = CALayer()
            let shrink = CABasicAnimation(keyPath: "transform.scale")
            shrink.fromValue = 1
            shrink.toValue = 0.8
            let dim = CABasicAnimation(keyPath: "opacity")
            dim.fromValue = 1
            dim.toValue = 0.5
            dim.beginTime = 0.5
            dim.duration = 0.5
            let press = CAAnimationGroup()
            press.animations = [shrink, dim]
            press.duration = 1
            press.speed = 0
            press.timeOffset = 0.75
            button.add(press, forKey: "press")
            let shown = try #require(button.presentation())
            #expect(abs(Double(shown.value(forKeyPath: "transform.scale") as? Double ?? 0) - (1 - 0.2 * 0.75)) < 1e-9)
            #expect(abs(Double(shown.opacity) - 0.75) < 1e-6)
            #expect(button.opacity == 1 && CATransform3DIsIdentity(button.transform))
        }

        // A transaction's completion block waits for the animations added in it, and runs on the main queue.
        @Test func aTransactionCompletesWhenItsAnimationsEnd() {
            let layer = CALayer()
            let done = DispatchSemaphore(value: 0)
            let state = NSLock()
            var completedAt = 0.0, onMain = false
            let start = CACurrentMediaTime()
            CATransaction.begin()
            CATransaction.setCompletionBlock {
                state.withLock {
                    completedAt = CACurrentMediaTime()
                    onMain = DispatchQueue.getSpecific(key: mainQueueKey) == true
                }
                done.signal()
            }
            let move = CABasicAnimation(keyPath: "position.x")
            move.toValue = 100
            move.duration = 0.2
            layer.add(move, forKey: nil)
            CATransaction.commit()
            #expect(done.wait(timeout: .now() + 5) == .success)
            state.withLock {
                #expect(completedAt - start >= 0.2 - 0.01)
                #expect(onMain)
            }
        }

        // Key paths as apps set them: the transform's parts, a point's coordinate, and a value of the app's own.
        @Test func layerValuesByKeyPath() {
            let layer = CALayer()
            layer.setValue(2, forKeyPath: "transform.scale")
            #expect(layer.transform == CATransform3DMakeScale(2, 2, 2))
            layer.setValue(Double.pi / 2, forKeyPath: "transform.rotation.z")
            let turned = CGPoint(x: 1, y: 0).applying(layer.affineTransform())
            #expect(abs(turned.x) < 1e-9 && abs(turned.y - 2) < 1e-9, "\(turned)")
            layer.position = CGPoint(x: 3, y: 4)
            #expect(layer.value(forKeyPath: "position.y") as? Double == 4)
            layer.setValue("focus", forKey: "role")
            #expect(layer.value(forKey: "role") as? String == "focus")
            let shape = CAShapeLayer()
            shape.setValue(0.25, forKeyPath: "strokeEnd")
            #expect(shape.strokeEnd == 0.25)
        }

        // A layer's time runs on its parent's as (parent time − beginTime) × speed + timeOffset, from the host clock
        // down the tree; conversions between layers go through the layer they share.
        @Test func layerTimeFollowsTheTimingFormulaDownTheTree() {
            let parent = CALayer(), child = CALayer(), sibling = CALayer()
            parent.addSublayer(child)
            parent.addSublayer(sibling)
            (parent.beginTime, parent.speed, parent.timeOffset) = (2, 2, 1)
            (child.speed, child.timeOffset) = (0.5, 3)
            sibling.beginTime = 4
            let host = 10.0
            let parentTime = (host - 2) * 2 + 1
            let childTime = parentTime * 0.5 + 3
            #expect(abs(parent.convertTime(host, from: nil) - parentTime) < 1e-9)
            #expect(abs(child.convertTime(host, from: nil) - childTime) < 1e-9)
            #expect(abs(child.convertTime(childTime, to: nil) - host) < 1e-9)
            #expect(abs(sibling.convertTime(childTime, from: child) - (parentTime - 4)) < 1e-9)
            #expect(abs(child.convertTime(parentTime - 4, from: sibling) - childTime) < 1e-9)
            // Two layers in no tree share only the host clock: Apple's example of a slow-motion layer, offset by a
            // second and running at half speed, sees half a second of the other's time as 0.5 × 0.5 + 1.
            let layer = CALayer(), slowMotion = CALayer()
            (slowMotion.timeOffset, slowMotion.speed) = (1, 0.5)
            #expect(abs(slowMotion.convertTime(0.5, from: layer) - 1.25) < 1e-9)
            // A held layer's time stands at its offset; converting within it, or to a sublayer, still works.
            parent.speed = 0
            #expect(parent.convertTime(123, from: nil) == 1)
            #expect(abs(child.convertTime(1, from: parent) - 3.5) < 1e-9)
        }

        // Apple's pause idiom on a recording indicator that fades: the layer's speed goes to 0 at the layer time it
        // stands at, so the fade holds there past its own end and its delegate hears nothing; on resuming, the
        // layer's begin time takes up the pause, and the fade goes on from where it stood and ends that much later.
        @Test func aPausedLayerHoldsItsAnimationAndResumesWhereItStood() throws {
            let indicator = CALayer()
            let log = AnimationLog()
            let fade = fadeOut(duration: 0.6, log: log, tag: "blink")
            indicator.add(fade, forKey: "blink")
            let begin = try #require(indicator.animation(forKey: "blink")).beginTime
            Thread.sleep(forTimeInterval: 0.15)
            // The app pauses and resumes on the main queue, as its controls do.
            let pausedAt = DispatchQueue.main.sync { () -> CFTimeInterval in
                let paused = indicator.convertTime(CACurrentMediaTime(), from: nil)
                indicator.speed = 0
                indicator.timeOffset = paused
                return paused
            }
            let held = 1 - (pausedAt - begin) / 0.6
            #expect(held > 0.2 && held < 0.8, "\(held)")
            #expect(abs(Double(try #require(indicator.presentation()).opacity) - held) < 1e-6)
            Thread.sleep(forTimeInterval: 0.7)  // past the fade's own end
            #expect(abs(Double(try #require(indicator.presentation()).opacity) - held) < 1e-6)
            #expect(log.all == ["start blink"], "\(log.all)")
            #expect(indicator.animation(forKey: "blink") != nil)

            let resumed = DispatchQueue.main.sync { () -> CFTimeInterval in
                let paused = indicator.timeOffset
                indicator.speed = 1
                indicator.timeOffset = 0
                indicator.beginTime = 0
                let now = CACurrentMediaTime()
                indicator.beginTime = indicator.convertTime(now, from: nil) - paused
                return now
            }
            let before = CACurrentMediaTime()
            let seen = Double(try #require(indicator.presentation()).opacity)
            let after = CACurrentMediaTime()
            // Local time is the paused time plus what passed since the resumption.
            let line = { (t: Double) in held - (t - resumed) / 0.6 }
            #expect(seen <= line(before) + 1e-3 && seen >= line(after) - 1e-3, "\(seen)")
            #expect(log.stopped.wait(timeout: .now() + 5) == .success)
            #expect(log.all == ["start blink", "stop blink true"])
            #expect(log.stopTime - resumed >= held * 0.6 - 0.01, "the rest of the fade plays after the pause")
        }

        // A sublayer plays on its parent's time: a parent at twice the speed ends a child's fade in half its
        // duration, and a held parent holds it.
        @Test func aSublayerPlaysOnItsParentsTime() throws {
            let parent = CALayer(), child = CALayer()
            parent.addSublayer(child)
            parent.speed = 2
            let log = AnimationLog()
            let fade = fadeOut(duration: 0.8, log: log, tag: "fade")
            let added = CACurrentMediaTime()
            child.add(fade, forKey: "fade")
            // The child's time is twice the host's, and the fade began at the child's time then.
            let begin = try #require(child.animation(forKey: "fade")).beginTime
            #expect(abs(begin - 2 * added) < 0.05)
            Thread.sleep(forTimeInterval: 0.1)
            // So it runs down twice as fast: 1 − (2t − begin)/0.8, the clock read around the look.
            let before = CACurrentMediaTime()
            let seen = Double(try #require(child.presentation()).opacity)
            let after = CACurrentMediaTime()
            #expect(seen <= 1 - (2 * before - begin) / 0.8 + 1e-6 && seen >= 1 - (2 * after - begin) / 0.8 - 1e-6, "\(seen)")
            #expect(log.stopped.wait(timeout: .now() + 5) == .success)
            #expect(log.stopTime - added >= 0.4 - 0.01, "ends no sooner than half its duration")

            let held = CALayer(), inside = CALayer()
            held.addSublayer(inside)
            inside.add(fade, forKey: "fade")
            let insideBegin = try #require(inside.animation(forKey: "fade")).beginTime
            DispatchQueue.main.sync {
                held.timeOffset = held.convertTime(CACurrentMediaTime(), from: nil)
                held.speed = 0
            }
            let stood = Double(try #require(inside.presentation()).opacity)
            Thread.sleep(forTimeInterval: 0.2)
            #expect(Double(try #require(inside.presentation()).opacity) == stood)
            #expect(abs(stood - (1 - (held.timeOffset - insideBegin) / 0.8)) < 1e-6)
        }
    }
}
