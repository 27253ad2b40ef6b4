import ExternalTools
import Foundation
import Imaging
import Testing

/// Opens a report page in headless Chromium, as a reader would, and says what went wrong with it.
///
/// The page is copied with a small script appended that runs after the load event and writes its
/// findings into the DOM, which `--dump-dom` prints: pictures that did not load, and boxes that
/// run past the right edge of the window (the step table's expectations column, the timeline's
/// labels). At 1280 pixels a table wider than the window may scroll inside its box; at a phone's 390
/// pixels nothing may: the verdicts and photos must be on screen, with no sideways scrolling. A
/// screenshot of the 1280-pixel window must be 1280 × 4000 pixels and not blank.
enum BrowserCheck {
    static let probe = """
        <script>
        window.addEventListener('load', () => {
          const problems = [];
          const images = Array.from(document.images);
          for (const img of images) {
            if (!img.complete || img.naturalWidth === 0) problems.push('broken image ' + img.getAttribute('src'));
          }
          const edge = document.documentElement.clientWidth;
          const phone = edge < 600;
          for (const cell of document.querySelectorAll('table.steps td:last-child, table.steps th:last-child')) {
            const box = cell.getBoundingClientRect();
            if (phone && box.width === 0) continue;
            // A table wider than a desktop window scrolls inside its box; only what is cut off counts. On a
            // phone the expectations must be on screen.
            const scroller = cell.closest('.scroll');
            const limit = scroller && !phone ? scroller.getBoundingClientRect().left + scroller.scrollWidth : edge;
            if (box.right > limit + 1 || box.width < 40) problems.push('expectations column clipped');
          }
          if (phone) {
            for (const img of images) {
              const box = img.getBoundingClientRect();
              if (box.right > edge + 1 || box.left < -1) problems.push('photo off screen: ' + img.getAttribute('src'));
            }
            for (const scroller of document.querySelectorAll('.scroll')) {
              if (scroller.querySelector('table') && scroller.scrollWidth > scroller.clientWidth + 1) {
                problems.push('a table scrolls sideways');
              }
            }
          }
          for (const svg of document.querySelectorAll('svg')) {
            const width = svg.viewBox.baseVal ? svg.viewBox.baseVal.width : svg.width.baseVal.value;
            for (const text of svg.querySelectorAll('text')) {
              const b = text.getBBox();
              if (b.x < 0 || b.x + b.width > width + 0.5) problems.push('timeline label clipped: ' + text.textContent);
            }
            const dots = Array.from(svg.querySelectorAll('circle')).map(c => [c.cx.baseVal.value, c.cy.baseVal.value]);
            const seen = new Set();
            for (const c of svg.querySelectorAll('circle')) {
              if (!c.querySelector('title') || !c.querySelector('title').textContent.includes(': photo ')) continue;
              const key = c.cx.baseVal.value.toFixed(1) + ',' + c.cy.baseVal.value.toFixed(1);
              if (seen.has(key)) problems.push('photos overlap at ' + key);
              seen.add(key);
            }
          }
          if (document.documentElement.scrollWidth > edge + 1) problems.push('page wider than the window');
          document.body.setAttribute('data-images', String(images.length));
          document.body.setAttribute('data-problems', problems.join(' | ') || 'none');
        });
        </script>
        """

    struct Findings {
        var images: Int
        var problems: String
    }

    /// Loads `page` (beside its pictures) in a window `width` pixels wide and returns what the probe
    /// found; the test takes `.needs(.chromium)`.
    static func check(_ page: URL, width: Int = 1280) throws -> Findings {
        let chromium = try ExternalTool.chromium.require()
        let html = try String(contentsOf: page, encoding: .utf8)
        let probed = page.deletingLastPathComponent().appendingPathComponent("probe-\(UUID().uuidString).html")
        try html.replacingOccurrences(of: "</body>", with: probe + "</body>")
            .write(to: probed, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: probed) }
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let common = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--allow-file-access-from-files",
                      "--user-data-dir=\(profile.path)", "--window-size=\(width),4000", "--virtual-time-budget=10000"]
        let dom = try runChromium(chromium, common + ["--dump-dom", probed.absoluteString])
        let images = Int(attribute("data-images", in: dom) ?? "") ?? -1
        let problems = attribute("data-problems", in: dom) ?? "the probe did not run"
        // The screenshot is of the desktop window only: it checks the page paints at all.
        guard width == 1280 else { return Findings(images: images, problems: problems) }

        let shot = page.deletingLastPathComponent().appendingPathComponent("screenshot-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: shot) }
        _ = try runChromium(chromium, common + ["--screenshot=\(shot.path)", page.absoluteString])
        let picture = try PNG.read(contentsOf: shot.path)
        #expect(picture.width == 1280 && picture.height == 4000, "screenshot \(picture.width)x\(picture.height)")
        if case .eightBit(let pixels) = picture.pixels {
            let values = pixels.packedElements
            #expect((values.min() ?? 0) < (values.max() ?? 0), "the screenshot is blank")
        }
        return Findings(images: images, problems: problems)
    }

    private static func attribute(_ name: String, in dom: String) -> String? {
        guard let start = dom.range(of: name + "=\"") else { return nil }
        let rest = dom[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end]).replacingOccurrences(of: "&amp;", with: "&")
    }

    private static func runChromium(_ path: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Every `<img src>` of `page`, which must name a PNG beside it that decodes.
    static func referencedPicturesDecode(_ page: URL) throws -> Int {
        let html = try String(contentsOf: page, encoding: .utf8)
        var count = 0
        for part in html.components(separatedBy: "<img src=\"").dropFirst() {
            guard let end = part.firstIndex(of: "\"") else { continue }
            let file = page.deletingLastPathComponent().appendingPathComponent(String(part[..<end])).path
            let image = try PNG.read(contentsOf: file)
            #expect(image.width > 0 && image.height > 0, "\(file)")
            count += 1
        }
        return count
    }
}
