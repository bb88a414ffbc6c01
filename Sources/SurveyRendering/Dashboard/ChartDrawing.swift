import Foundation

/// The dashboard's three kinds of picture, drawn as SVG with presentation attributes only (the
/// page's CSP allows no inline style), in a view box that scales to the column it sits in.
/// Every piece of text goes through the one escaper.
enum ChartDrawing {
    static let width = 440.0
    static let ink = "#0b0c0c"
    static let bar = "#1d70b8"
    static let grid = "#b1b4b6"
    static let font = "font-family=\"Arial, sans-serif\""

    /// A bar, with its label and figure, per row: choices, the funnel, times.
    struct Bar {
        var label: String
        var value: Double
        var figure: String
        /// A second mark on the bar (the 90th percentile beside the median).
        var mark: Double?
    }

    /// A column per period, split by series (runs by status).
    struct Series {
        var name: String
        var colour: String
        var values: [Double]
    }

    static func bars(_ rows: [Bar], id: String, title: String) -> String {
        let top = rows.map { max($0.value, $0.mark ?? 0) }.max() ?? 0
        // Room after the longest bar for the longest figure, at about 8 units a character.
        let room = min((rows.map { Double($0.figure.count) }.max() ?? 0) * 8 + 12, width / 2)
        let scale = top > 0 ? (width - room) / top : 0
        var body = ""
        for (index, row) in rows.enumerated() {
            let y = Double(index) * 40
            let length = row.value * scale
            body += text(short(row.label, 70), x: 0, y: y + 13)
            body += "<rect x=\"0\" y=\"\(n(y + 18))\" width=\"\(n(max(length, row.value > 0 ? 1 : 0)))\" height=\"16\" fill=\"\(bar)\"/>"
            if let mark = row.mark {
                body += "<rect x=\"\(n(mark * scale - 1))\" y=\"\(n(y + 15))\" width=\"2\" height=\"22\" fill=\"\(ink)\"/>"
            }
            body += text(row.figure, x: max(length, (row.mark ?? 0) * scale) + 6, y: y + 31)
        }
        return svg(id: id, title: title, height: max(Double(rows.count) * 40, 20), body: body)
    }

    /// Columns for `labels.count` periods or bins, stacked by series; `axis` names the first,
    /// middle and last column under the plot.
    static func columns(_ series: [Series], labels: [String], id: String, title: String) -> String {
        let count = labels.count
        let totals = (0..<count).map { column in series.reduce(0) { $0 + ($1.values.indices.contains(column) ? $1.values[column] : 0) } }
        let top = max(totals.max() ?? 0, 1)
        let plotLeft = 40.0, plotWidth = width - plotLeft - 8, plotHeight = 160.0
        // Columns no wider than 48: a few days do not fill the plot with two blocks.
        let step = count > 0 ? min(plotWidth / Double(count), 48) : plotWidth
        let gap = step > 6 ? min(step * 0.2, 6) : 0
        var body = "<line x1=\"\(n(plotLeft))\" y1=\"\(n(plotHeight))\" x2=\"\(n(width - 8))\" y2=\"\(n(plotHeight))\" stroke=\"\(grid)\"/>"
        body += text(figure(top), x: plotLeft - 6, y: 12, anchor: "end")
        body += text("0", x: plotLeft - 6, y: plotHeight, anchor: "end")
        body += "<line x1=\"\(n(plotLeft))\" y1=\"4\" x2=\"\(n(width - 8))\" y2=\"4\" stroke=\"\(grid)\" stroke-dasharray=\"2 3\"/>"
        for column in 0..<count {
            var base = plotHeight
            for line in series where line.values.indices.contains(column) && line.values[column] > 0 {
                let height = line.values[column] / top * (plotHeight - 4)
                base -= height
                body += "<rect x=\"\(n(plotLeft + Double(column) * step + gap / 2))\" y=\"\(n(base))\" width=\"\(n(max(step - gap, 1)))\" "
                    + "height=\"\(n(height))\" fill=\"\(line.colour)\"/>"
            }
        }
        // The first, last and middle column's labels, as many as fit without touching.
        var labelled = count > 0 ? [0] : []
        if count > 1, Double(count) * step >= 190 { labelled.append(count - 1) }
        if count > 2, Double(count) * step >= 300 { labelled.append(count / 2) }
        for column in Set(labelled).sorted() {
            let anchor = column == 0 ? "start" : column == count - 1 ? "end" : "middle"
            let x = column == 0 ? plotLeft : column == count - 1 ? plotLeft + Double(count) * step : plotLeft + (Double(column) + 0.5) * step
            body += text(labels[column], x: x, y: plotHeight + 18, anchor: anchor)
        }
        var legendY = plotHeight + 44
        var legendX = 0.0
        if series.count > 1 {
            for line in series {
                let label = "\(line.name) \(figure(line.values.reduce(0, +)))"
                let widthNeeded = Double(label.count) * 7.5 + 26
                if legendX + widthNeeded > width { legendX = 0; legendY += 22 }
                body += "<rect x=\"\(n(legendX))\" y=\"\(n(legendY - 11))\" width=\"12\" height=\"12\" fill=\"\(line.colour)\"/>"
                body += text(label, x: legendX + 18, y: legendY)
                legendX += widthNeeded
            }
        }
        return svg(id: id, title: title, height: series.count > 1 ? legendY + 8 : plotHeight + 26, body: body)
    }

    static func svg(id: String, title: String, height: Double, body: String) -> String {
        "<svg class=\"chart\" role=\"img\" aria-labelledby=\"\(id)-title\" viewBox=\"0 0 \(n(width)) \(n(height))\" "
            + "width=\"\(n(width))\" height=\"\(n(height))\" \(font) font-size=\"14\" fill=\"\(ink)\">"
            + "<title id=\"\(id)-title\">\(HTMLEscaping.escape(title))</title>\(body)</svg>"
    }

    /// The picture as a file of its own: the namespace, and a white ground.
    static func standalone(_ svg: String) -> String {
        let opened = svg.replacingOccurrences(of: "<svg class=\"chart\" ", with: "<svg xmlns=\"http://www.w3.org/2000/svg\" ", options: .anchored)
        guard let end = opened.firstIndex(of: ">") else { return opened }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + opened[...end] + "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>"
            + opened[opened.index(after: end)...] + "\n"
    }

    static func text(_ words: String, x: Double, y: Double, anchor: String = "start") -> String {
        "<text x=\"\(n(x))\" y=\"\(n(y))\"\(anchor == "start" ? "" : " text-anchor=\"\(anchor)\"")>\(HTMLEscaping.escape(words))</text>"
    }

    static func short(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    /// A count as a person writes it: whole numbers without a decimal point.
    static func figure(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.1f", value)
    }

    /// A coordinate with at most one decimal.
    static func n(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
