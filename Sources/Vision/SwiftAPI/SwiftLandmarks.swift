import Foundation

extension FaceObservation {
    /// A face's landmarks (`FaceObservation.Landmarks2D`), normalised to the face's bounding box with the origin at
    /// its lower left: the regions of `VNFaceLandmarks2D` (spec §22.11 rule 38).
    public struct Landmarks2D: Hashable, Sendable, CustomStringConvertible {
        public let allPoints: Region
        public let faceContour: Region
        public let leftEyebrow: Region
        public let rightEyebrow: Region
        public let noseCrest: Region
        public let nose: Region
        public let leftEye: Region
        public let rightEye: Region
        public let outerLips: Region
        public let innerLips: Region
        public let leftPupil: Region
        public let rightPupil: Region
        public let medianLine: Region
        /// How sure the request is of the landmarks, 0…1.
        public let confidence: Float
        public let originatingRequestDescriptor: RequestDescriptor?

        init(_ landmarks: VNFaceLandmarks2D, face: NormalizedRect, descriptor: RequestDescriptor) {
            func region(_ r: VNFaceLandmarkRegion2D?) -> Region { Region(r, face: face, descriptor: descriptor) }
            allPoints = region(landmarks.allPoints)
            faceContour = region(landmarks.faceContour)
            leftEyebrow = region(landmarks.leftEyebrow)
            rightEyebrow = region(landmarks.rightEyebrow)
            noseCrest = region(landmarks.noseCrest)
            nose = region(landmarks.nose)
            leftEye = region(landmarks.leftEye)
            rightEye = region(landmarks.rightEye)
            outerLips = region(landmarks.outerLips)
            innerLips = region(landmarks.innerLips)
            leftPupil = region(landmarks.leftPupil)
            rightPupil = region(landmarks.rightPupil)
            medianLine = region(landmarks.medianLine)
            confidence = landmarks.confidence
            originatingRequestDescriptor = descriptor
        }

        public var description: String { "Landmarks2D(\(allPoints.points.count) points)" }

        /// The points of one facial feature (`FaceObservation.Landmarks2D.Region`).
        public struct Region: Hashable, Sendable, CustomStringConvertible {
            /// How a region's points are to be read.
            public enum PointsClassification: Hashable, Sendable, Codable {
                case disconnected
                case openPath
                case closedPath
            }

            /// The points, normalised to the face's bounding box with the origin at its lower left.
            public let points: [NormalizedPoint]
            public let pointsClassification: PointsClassification
            /// Per point, how far off it may be; nil, as the regression trees give no such measure.
            public let precisionEstimatesPerPoint: [Float]?
            public let originatingRequestDescriptor: RequestDescriptor?
            /// The face's bounding box in the image, which the points are normalised to.
            let face: NormalizedRect

            init(_ region: VNFaceLandmarkRegion2D?, face: NormalizedRect, descriptor: RequestDescriptor) {
                points = region?.normalizedPoints.map { NormalizedPoint(x: $0.x, y: $0.y) } ?? []
                switch region?.pointsClassification ?? .disconnected {
                case .disconnected: pointsClassification = .disconnected
                case .openPath: pointsClassification = .openPath
                case .closedPath: pointsClassification = .closedPath
                }
                precisionEstimatesPerPoint = nil
                originatingRequestDescriptor = descriptor
                self.face = face
            }

            public var description: String { "Region(\(points.count) points, \(pointsClassification))" }

            /// The points in an image of `imageSize`, from the corner `origin` says.
            public func pointsInImageCoordinates(_ imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft)
                -> [CGPoint]
            {
                let box = face.cgRect
                return points.map { p in
                    NormalizedPoint(x: box.minX + p.x * box.width, y: box.minY + p.y * box.height)
                        .toImageCoordinates(imageSize, origin: origin)
                }
            }
        }
    }
}
