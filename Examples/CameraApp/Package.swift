// swift-tools-version:6.0
// A small camera written as iOS apps write it, and its tests, run on Linux through Obscura.
import PackageDescription

let package = Package(
    name: "CameraApp",
    platforms: [.macOS(.v14)],
    dependencies: [
        // In your own package: .package(url: "https://github.com/<owner>/obscura.git", from: "0.3.0")
        .package(path: "../obscura")
    ],
    targets: [
        .target(name: "CameraKit", dependencies: [.product(name: "AVFoundation", package: "obscura")]),
        .testTarget(
            name: "CameraKitTests",
            dependencies: [
                "CameraKit",
                .product(name: "AVFoundation", package: "obscura"),
                .product(name: "ObscuraTesting", package: "obscura"),
            ]),
    ]
)
