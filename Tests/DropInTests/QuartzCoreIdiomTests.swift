import Foundation
import QuartzCore
import Testing

// Layer geometry and CoreGraphics values as UI code writes them (spec §16.1).

extension DropIn {
    @Suite struct QuartzCoreIdiomTests {
        @Test func frameFollowsBoundsPositionAndAnchor() {
            let layer = CALayer()
            layer.frame = CGRect(x: 10, y: 20, width: 100, height: 50)
            #expect(layer.bounds.size == CGSize(width: 100, height: 50))
            #expect(layer.position == CGPoint(x: 60, y: 45))
            layer.anchorPoint = .zero
            #expect(layer.frame.origin == CGPoint(x: 60, y: 45))
            #expect(layer.frame.midX == 110)
        }

        // Apple's DockKit sample converts points with the preview layer's preferredFrameSize(): with no layout
        // manager, the bounds' size as the superlayer sees it, turned by the layer's transform.
        @Test func preferredFrameSizeIsTheBoundsSeenFromTheSuperlayer() {
            let layer = CALayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 390, height: 844)
            #expect(layer.preferredFrameSize() == CGSize(width: 390, height: 844))
            layer.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))
            let turned = layer.preferredFrameSize()
            #expect(abs(turned.width - 844) < 1e-6 && abs(turned.height - 390) < 1e-6, "\(turned)")
        }

        @Test func sublayersAddAndRemove() {
            let root = CALayer(), child = CALayer(), other = CALayer()
            root.addSublayer(child)
            root.insertSublayer(other, at: 0)
            #expect(root.sublayers?.count == 2 && root.sublayers?.first === other)
            #expect(child.superlayer === root)
            child.removeFromSuperlayer()
            #expect(child.superlayer == nil && root.sublayers?.count == 1)
            let newParent = CALayer()
            newParent.addSublayer(other)
            #expect(root.sublayers == nil && other.superlayer === newParent)
        }

        @Test func layerStyleProperties() {
            let layer = CALayer()
            layer.contentsScale = 3
            layer.masksToBounds = true
            layer.cornerRadius = 12
            layer.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            layer.setAffineTransform(CGAffineTransform(scaleX: -1, y: 1))
            #expect(layer.contentsScale == 3 && layer.masksToBounds && layer.cornerRadius == 12)
            #expect(layer.backgroundColor?.alpha == 1)
            #expect(layer.affineTransform().a == -1)
        }

        @Test func affineTransformsMapPoints() {
            let quarter = CGAffineTransform(rotationAngle: .pi / 2)
            let p = CGPoint(x: 1, y: 0).applying(quarter)
            // A positive angle turns +x towards +y.
            #expect(abs(p.x) < 1e-12 && abs(p.y - 1) < 1e-12)
            let t = CGAffineTransform(translationX: 10, y: 0).scaledBy(x: 2, y: 2)
            #expect(CGPoint(x: 1, y: 1).applying(t) == CGPoint(x: 12, y: 2))
            let back = CGPoint(x: 12, y: 2).applying(t.inverted())
            #expect(abs(back.x - 1) < 1e-12 && abs(back.y - 1) < 1e-12)
            #expect(CGAffineTransform.identity.isIdentity)
        }

        // Overlay code moves its layers inside a transaction with actions disabled (Apple's code-reading and
        // face-tracking samples): the settings hold inside it and go with its commit, and a completion block runs
        // when the outermost transaction commits.
        @Test func transactionsNestTheirSettingsAndCompleteAtTheOutermostCommit() {
            var completed: [String] = []
            #expect(!CATransaction.disableActions() && CATransaction.animationDuration() == 0.25)
            CATransaction.begin()
            CATransaction.setValue(kCFBooleanTrue, forKey: kCATransactionDisableActions)
            CATransaction.setCompletionBlock { completed.append("outer") }
            #expect(CATransaction.disableActions())
            CATransaction.begin()
            CATransaction.setAnimationDuration(0.5)
            CATransaction.setCompletionBlock { completed.append("inner") }
            #expect(CATransaction.animationDuration() == 0.5 && CATransaction.disableActions())
            let layer = CALayer()
            layer.frame = CGRect(x: 0, y: 0, width: 40, height: 30)
            #expect(layer.position == CGPoint(x: 20, y: 15))
            CATransaction.commit()
            #expect(completed.isEmpty && CATransaction.animationDuration() == 0.25)
            CATransaction.commit()
            #expect(completed.sorted() == ["inner", "outer"])
            #expect(!CATransaction.disableActions())
            let t0 = CACurrentMediaTime()
            #expect(CACurrentMediaTime() >= t0)
        }

        @Test func rectApplyingATransformBoundsTheCorners() {
            let rect = CGRect(x: 0, y: 0, width: 4, height: 2).applying(CGAffineTransform(rotationAngle: .pi / 2))
            #expect(abs(rect.minX + 2) < 1e-12 && abs(rect.width - 2) < 1e-12 && abs(rect.height - 4) < 1e-12)
        }

        // A tap on a preview with overlays: the frontmost layer under the point answers, through the layers'
        // transforms; hidden layers and the parts of a masking layer's sublayers outside it are never hit.
        @Test func hitTestFindsTheFrontmostLayerUnderAPoint() {
            let preview = CALayer()
            preview.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
            let square = CALayer(), badge = CALayer(), hidden = CALayer(), clip = CALayer(), spill = CALayer()
            square.frame = CGRect(x: 100, y: 100, width: 80, height: 80)
            badge.frame = CGRect(x: 150, y: 150, width: 50, height: 50)
            hidden.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
            hidden.isHidden = true
            clip.frame = CGRect(x: 300, y: 0, width: 50, height: 50)
            clip.masksToBounds = true
            spill.frame = CGRect(x: 0, y: 40, width: 50, height: 50)  // half outside its masking parent
            clip.addSublayer(spill)
            for layer in [badge, square, hidden, clip] { preview.addSublayer(layer) }
            // The square was added after the badge, so it is in front where they overlap, until the badge rises.
            #expect(preview.hitTest(CGPoint(x: 160, y: 160)) === square)
            badge.zPosition = 1
            #expect(preview.hitTest(CGPoint(x: 160, y: 160)) === badge)
            #expect(preview.hitTest(CGPoint(x: 190, y: 190)) === badge)
            #expect(preview.hitTest(CGPoint(x: 120, y: 120)) === square)
            #expect(preview.hitTest(CGPoint(x: 20, y: 20)) === preview, "a hidden layer is not hit")
            #expect(preview.hitTest(CGPoint(x: 320, y: 45)) === spill)
            #expect(preview.hitTest(CGPoint(x: 320, y: 60)) === preview, "outside the masking layer")
            clip.masksToBounds = false
            #expect(preview.hitTest(CGPoint(x: 320, y: 60)) === spill)
            #expect(preview.hitTest(CGPoint(x: 500, y: 20)) == nil)
            // Scaled twice about its centre (140, 140), the square reaches from 60 to 220, in front of the badge.
            badge.zPosition = 0
            square.transform = CATransform3DMakeScale(2, 2, 1)
            #expect(preview.hitTest(CGPoint(x: 70, y: 70)) === square)
            #expect(preview.hitTest(CGPoint(x: 215, y: 215)) === square)
            #expect(preview.hitTest(CGPoint(x: 225, y: 225)) === preview)
            // Asked of a sublayer, the point is in the superlayer's coordinates.
            #expect(square.hitTest(CGPoint(x: 70, y: 70)) === square)
            #expect(square.hitTest(CGPoint(x: 30, y: 30)) == nil)
        }
    }
}
