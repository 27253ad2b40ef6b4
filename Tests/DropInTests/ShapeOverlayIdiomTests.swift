import Foundation
import QuartzCore
import Testing

// Overlays as capture apps draw them over the preview: a CGPath outlining what a frame showed, held by a
// CAShapeLayer, and points converted between layers. Checked against closed-form geometry.

extension DropIn {
    @Suite struct ShapeOverlayIdiomTests {
        // A detected rectangle's four corners joined as scanner apps join them, in a shape layer with a dashed
        // stroke and a clear fill; the layer keeps Core Animation's defaults for the rest.
        @Test func aShapeLayerOutlinesADetectedQuadrilateral() throws {
            let corners = [CGPoint(x: 40, y: 30), CGPoint(x: 260, y: 50), CGPoint(x: 240, y: 330), CGPoint(x: 20, y: 300)]
            let path = CGMutablePath()
            path.addLines(between: corners)
            path.closeSubpath()
            let outline = CAShapeLayer()
            #expect(outline.fillColor != nil && outline.strokeColor == nil && outline.lineWidth == 1)
            #expect(outline.fillRule == .nonZero && outline.lineCap == .butt && outline.lineJoin == .miter)
            #expect(outline.strokeStart == 0 && outline.strokeEnd == 1 && outline.miterLimit == 10)
            outline.path = path
            outline.fillColor = CGColor.clear
            outline.strokeColor = CGColor(red: 1, green: 0.8, blue: 0, alpha: 1)
            outline.lineWidth = 3
            outline.lineDashPattern = [6, 4]
            #expect(outline.lineDashPattern == [6, 4])
            let held = try #require(outline.path)
            #expect(held.boundingBox == CGRect(x: 20, y: 30, width: 240, height: 300))
            #expect(held.currentPoint == CGPoint(x: 40, y: 30))
            // Inside: the quadrilateral's centroid; outside: a point beyond the slanted right side, which runs
            // from (260, 50) to (240, 330), so at y = 190 it lies at x = 250.
            #expect(held.contains(CGPoint(x: 140, y: 180)))
            #expect(held.contains(CGPoint(x: 249, y: 190)) && !held.contains(CGPoint(x: 251, y: 190)))
            var kinds: [CGPathElementType] = []
            held.applyWithBlock { kinds.append($0.pointee.type) }
            #expect(kinds == [.moveToPoint, .addLineToPoint, .addLineToPoint, .addLineToPoint, .closeSubpath])
        }

        // A focus ring: a circle's path is bounded by its square, and its curves stay on the circle to within
        // the quarter-arc Bézier's 0.03 % of the radius.
        @Test func aCirclesPathHugsTheCircle() {
            let ring = CGPath(ellipseIn: CGRect(x: 100, y: 200, width: 80, height: 80), transform: nil)
            #expect(ring.boundingBoxOfPath == CGRect(x: 100, y: 200, width: 80, height: 80))
            for degrees in stride(from: 5.0, to: 360, by: 10) {
                let a = degrees * .pi / 180
                let inner = CGPoint(x: 140 + 39.98 * cos(a), y: 240 + 39.98 * sin(a))
                let outer = CGPoint(x: 140 + 40.02 * cos(a), y: 240 + 40.02 * sin(a))
                #expect(ring.contains(inner) && !ring.contains(outer), "\(degrees)°")
            }
            // A half circle, drawn anticlockwise from 0 to π with the y axis up: its box is the upper half-disc's.
            let arc = CGMutablePath()
            arc.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi, clockwise: false)
            let box = arc.boundingBoxOfPath
            #expect(abs(box.minX + 10) < 1e-9 && abs(box.maxX - 10) < 1e-9)
            #expect(abs(box.minY) < 1e-9 && abs(box.maxY - 10) < 1e-9, "\(box)")
            // The same ends the other way round: the lower half.
            let other = CGMutablePath()
            other.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi, clockwise: true)
            #expect(abs(other.boundingBoxOfPath.minY + 10) < 1e-9 && abs(other.boundingBoxOfPath.maxY) < 1e-9)
        }

        // A region of interest cut out of a dimmed preview: the whole view and the hole in one path, which the
        // even-odd rule fills only around the hole, while the winding rule fills both (same direction).
        @Test func evenOddCutsTheRegionOfInterestOut() {
            let mask = CGMutablePath()
            mask.addRect(CGRect(x: 0, y: 0, width: 390, height: 844))
            mask.addRect(CGRect(x: 45, y: 322, width: 300, height: 200))
            let inHole = CGPoint(x: 195, y: 422)
            #expect(!mask.contains(inHole, using: .evenOdd) && mask.contains(inHole, using: .winding))
            #expect(mask.contains(CGPoint(x: 10, y: 10), using: .evenOdd))
            // The point is mapped through the transform before the test: (10, 422) is in the dimmed band left of the
            // hole, and 100 to the right it is in the hole.
            let beside = CGPoint(x: 10, y: 422)
            #expect(mask.contains(beside, using: .evenOdd))
            #expect(!mask.contains(beside, using: .evenOdd, transform: CGAffineTransform(translationX: 100, y: 0)))
            var rect = CGRect.zero
            #expect(CGPath(rect: CGRect(x: 1, y: 2, width: 3, height: 4), transform: nil).isRect(&rect))
            #expect(rect == CGRect(x: 1, y: 2, width: 3, height: 4))
            #expect(!mask.isRect(nil))
            let rounded = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 60), cornerWidth: 10, cornerHeight: 10, transform: nil)
            // The corner's quarter circle is 10 from (10, 10): (2, 2) lies outside it, (4, 4) inside.
            #expect(!rounded.contains(CGPoint(x: 2, y: 2)) && rounded.contains(CGPoint(x: 4, y: 4)))
            #expect(rounded.boundingBoxOfPath == CGRect(x: 0, y: 0, width: 100, height: 60))
        }

        // A quadratic curve's box reaches its extreme, half-way to the control point, not the control point.
        @Test func aCurvesBoxIsItsExtremesNotItsControls() {
            let path = CGMutablePath()
            path.move(to: CGPoint(x: 0, y: 0))
            path.addQuadCurve(to: CGPoint(x: 100, y: 0), control: CGPoint(x: 50, y: 100))
            #expect(path.boundingBox == CGRect(x: 0, y: 0, width: 100, height: 100))
            let tight = path.boundingBoxOfPath
            #expect(abs(tight.height - 50) < 1e-9 && tight.width == 100, "\(tight)")
            let moved = path.copy(using: [CGAffineTransform(scaleX: 2, y: 1)])
            #expect(moved?.boundingBox.width == 200)
            #expect(path.copy() == path && moved != path)
            #expect(CGMutablePath().isEmpty && CGMutablePath().boundingBox.isNull)
        }

        // A marker placed in a child layer, found in the preview's coordinates: the child's bounds origin and
        // anchor sit at its position, turned about the anchor by its transform.
        @Test func pointsConvertBetweenLayers() {
            let preview = CALayer()
            preview.frame = CGRect(x: 0, y: 0, width: 390, height: 844)
            let box = CALayer()
            box.frame = CGRect(x: 100, y: 200, width: 80, height: 40)
            preview.addSublayer(box)
            #expect(box.convert(CGPoint(x: 0, y: 0), to: preview) == CGPoint(x: 100, y: 200))
            #expect(preview.convert(CGPoint(x: 110, y: 230), to: box) == CGPoint(x: 10, y: 30))
            #expect(box.convert(CGRect(x: 0, y: 0, width: 80, height: 40), to: preview) == box.frame)
            // Turned a quarter about its centre, which sits at (140, 220): the corner (0, 0) is (−40, −20) from the
            // centre, and the quarter turn (x, y) ↦ (−y, x) takes it to (20, −40), so to (160, 180).
            box.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))
            let corner = box.convert(CGPoint.zero, to: preview)
            #expect(abs(corner.x - 160) < 1e-9 && abs(corner.y - 180) < 1e-9, "\(corner)")
            let back = box.convert(corner, from: preview)
            #expect(abs(back.x) < 1e-9 && abs(back.y) < 1e-9)
            #expect(box.contains(CGPoint(x: 79, y: 39)) && !box.contains(CGPoint(x: 81, y: 20)))
        }

        // CATransform3D as layer code builds it, against the closed forms: a quarter turn about z is the affine
        // quarter turn, translations and scales compose in the order given, the inverse undoes a perspective, and a
        // layer's affine transform is its 3D transform's plane part.
        @Test func transformsInSpaceFollowTheirClosedForms() {
            func close(_ a: CATransform3D, _ b: CATransform3D) -> Bool {
                let x = [a.m11, a.m12, a.m13, a.m14, a.m21, a.m22, a.m23, a.m24, a.m31, a.m32, a.m33, a.m34, a.m41, a.m42, a.m43, a.m44]
                let y = [b.m11, b.m12, b.m13, b.m14, b.m21, b.m22, b.m23, b.m24, b.m31, b.m32, b.m33, b.m34, b.m41, b.m42, b.m43, b.m44]
                return zip(x, y).allSatisfy { abs($0 - $1) < 1e-12 }
            }
            let quarter = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
            #expect(close(quarter, CATransform3DMakeAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))))
            #expect(CATransform3DIsAffine(quarter) && CATransform3DIsIdentity(CATransform3DIdentity))
            // Scale by 2, then move by (10, 0, 0): the point (1, 1, 1) goes to (12, 2, 2).
            let scaleThenMove = CATransform3DConcat(CATransform3DMakeScale(2, 2, 2), CATransform3DMakeTranslation(10, 0, 0))
            #expect(scaleThenMove.m11 == 2 && scaleThenMove.m41 == 10)
            #expect(CATransform3DEqualToTransform(CATransform3DTranslate(CATransform3DMakeScale(2, 2, 2), 5, 0, 0), scaleThenMove))
            // A half turn about the y axis sends x to −x and z to −z.
            let half = CATransform3DMakeRotation(.pi, 0, 1, 0)
            #expect(abs(half.m11 + 1) < 1e-12 && abs(half.m33 + 1) < 1e-12 && abs(half.m22 - 1) < 1e-12)
            var perspective = CATransform3DRotate(CATransform3DIdentity, .pi / 5, 1, 1, 0)
            perspective.m34 = -1 / 500
            #expect(!CATransform3DIsAffine(perspective))
            #expect(close(CATransform3DConcat(perspective, CATransform3DInvert(perspective)), CATransform3DIdentity))
            let layer = CALayer()
            layer.transform = CATransform3DMakeScale(3, 0.5, 1)
            #expect(layer.affineTransform() == CGAffineTransform(scaleX: 3, y: 0.5))
            layer.setAffineTransform(CGAffineTransform(translationX: 4, y: 5))
            #expect(layer.transform == CATransform3DMakeTranslation(4, 5, 0))
        }

        // A card turned 60° about its vertical axis inside a container with a perspective (m34 = −1/500), as
        // camera apps flip a thumbnail: a point 100 right of the card's centre is seen at 100 cos 60° /
        // (1 + 100 sin 60° / 500) right of the container's centre, nearer than without the perspective.
        @Test func aPerspectiveProjectsTheTurnedLayer() {
            let container = CALayer()
            container.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
            var eye = CATransform3DIdentity
            eye.m34 = -1.0 / 500
            container.sublayerTransform = eye
            let card = CALayer()
            card.frame = CGRect(x: 100, y: 150, width: 200, height: 100)
            container.addSublayer(card)
            card.transform = CATransform3DMakeRotation(.pi / 3, 0, 1, 0)
            let seen = card.convert(CGPoint(x: 200, y: 50), to: container)
            let expected = 200 + 100 * cos(Double.pi / 3) / (1 + 100 * sin(Double.pi / 3) / 500)
            #expect(abs(seen.x - expected) < 1e-9 && abs(seen.y - 200) < 1e-9, "\(seen), expected x \(expected)")
            let back = card.convert(seen, from: container)
            #expect(abs(back.x - 200) < 1e-9 && abs(back.y - 50) < 1e-9)
        }

        @Test func layerBordersShadowsAndMasksKeepTheirValues() {
            let layer = CALayer()
            #expect(layer.borderWidth == 0 && layer.shadowOpacity == 0 && layer.shadowRadius == 3)
            #expect(layer.shadowOffset == CGSize(width: 0, height: -3) && layer.mask == nil)
            layer.borderWidth = 2
            layer.borderColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
            layer.shadowOpacity = 0.5
            layer.shadowPath = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
            let mask = CAShapeLayer()
            mask.fillRule = .evenOdd
            layer.mask = mask
            #expect(layer.borderColor?.components == [0, 1, 0, 1] && layer.shadowOpacity == 0.5)
            #expect((layer.mask as? CAShapeLayer)?.fillRule == .evenOdd)
            // A presentation copy keeps the style too.
            let presented = CALayer(layer: layer)
            #expect(presented.borderWidth == 2 && presented.shadowOpacity == 0.5 && presented.mask === mask)
            let label = CATextLayer()
            #expect(label.fontSize == 36 && label.alignmentMode == .natural && label.foregroundColor != nil)
            label.string = "QR"
            label.alignmentMode = .center
            let copy = CATextLayer(layer: label)
            #expect(copy.string as? String == "QR" && copy.alignmentMode == .center)
        }
    }
}
