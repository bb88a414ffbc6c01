import Foundation
import SurveyAnalysis
import SurveyCore

/// The preview map's picture: every step a box (its identifier and type, its skip rule, marked
/// when no answers reach it) linking to the step's preview, every move the navigator can make
/// an arrow labelled with its condition in the map's words, and the end of the survey. Drawn on
/// the server as SVG with presentation attributes only, so the page's CSP needs no change.
public struct StepDiagram {
    struct Arrow: Equatable {
        let from: Int
        let to: Int
        var labels: [String]
    }

    let survey: String
    let steps: [Step]
    let arrows: [Arrow]
    let unreachable: Set<String>
    let skips: [String: String]

    public init(task: SurveyTask, words: PreviewExplainer, unreachable: Set<String>) {
        survey = task.identifier
        steps = task.steps
        self.unreachable = unreachable
        let graph = RuleGraph(task: task)
        let index = Dictionary(task.steps.enumerated().map { ($0.element.identifier, $0.offset) }, uniquingKeysWith: { first, _ in first })
        let end = task.steps.count
        var arrows: [Arrow] = []
        // A completion step that shows ends the run; only one passed over by its skip rule moves on.
        for (position, step) in task.steps.enumerated() where step.kind == .completion {
            arrows.append(Arrow(from: position, to: end, labels: []))
        }
        for edge in graph.edges {
            guard let from = index[edge.from] else { continue }
            if task.steps[from].kind == .completion, task.skipRule(for: edge.from) == nil { continue }
            let to: Int
            switch edge.to {
            case .step(let identifier): guard let found = index[identifier] else { continue }; to = found
            case .end: to = end
            }
            let label: String
            switch edge.kind {
            case .next: label = ""
            case .always: label = "always"
            case .rule: label = edge.predicate.map { "if " + words.words($0) } ?? ""
            case .otherwise: label = "otherwise"
            }
            if let same = arrows.firstIndex(where: { $0.from == from && $0.to == to }) {
                if !label.isEmpty { arrows[same].labels.append(label) }
            } else {
                arrows.append(Arrow(from: from, to: to, labels: label.isEmpty ? [] : [label]))
            }
        }
        self.arrows = arrows
        skips = task.steps.reduce(into: [:]) { found, step in
            if let rule = task.skipRule(for: step.identifier) { found[step.identifier] = "skipped when " + words.words(rule) }
        }
    }

    /// The moves drawn, as (from, to) step identifiers, `$end` for the end: what the tests hold
    /// against the rule graph.
    public var moves: [(from: String, to: String)] {
        arrows.map { (steps[$0.from].identifier, $0.to == steps.count ? Destination.endName : steps[$0.to].identifier) }
    }

    /// Above this many steps, runs of three or more steps that simply follow one another are
    /// drawn as one box, so that a long survey's branches stay in view.
    static let foldAbove = 30

    /// The boxes: each a run of step indices, one step unless folded, in the steps' order.
    func boxes() -> [[Int]] {
        guard steps.count > Self.foldAbove else { return steps.indices.map { [$0] } }
        var outgoing = [[Arrow]](repeating: [], count: steps.count + 1), incoming = [Int](repeating: 0, count: steps.count + 1)
        for arrow in arrows {
            outgoing[arrow.from].append(arrow)
            incoming[arrow.to] += 1
        }
        func plain(_ index: Int) -> Bool {
            index < steps.count && steps[index].kind != .completion && skips[steps[index].identifier] == nil
                && !unreachable.contains(steps[index].identifier)
        }
        // `a` runs straight on into `a + 1`: its one move, unconditional, is the only way into it,
        // and `a + 1` goes on unconditionally too, so a step that branches always has a box of its own.
        func straight(_ a: Int) -> Bool { outgoing[a].count == 1 && outgoing[a][0].labels.isEmpty }
        func runsOn(_ a: Int) -> Bool {
            plain(a) && plain(a + 1) && straight(a) && straight(a + 1) && outgoing[a][0].to == a + 1 && incoming[a + 1] == 1
        }
        var boxes: [[Int]] = []
        var index = 0
        while index < steps.count {
            var run = [index]
            while runsOn(run.last!) { run.append(run.last! + 1) }
            if run.count >= 3 {
                boxes.append(run)
            } else {
                boxes.append([index])
                run = [index]
            }
            index = run.last! + 1
        }
        return boxes
    }

    /// The SVG.
    public func svg() -> String {
        let boxes = self.boxes()
        var boxOf = [Int](repeating: 0, count: steps.count + 1)
        for (box, members) in boxes.enumerated() { for member in members { boxOf[member] = box } }
        boxOf[steps.count] = boxes.count
        // The arrows between boxes: a folded run's own moves are inside its box.
        var drawn: [Arrow] = []
        for arrow in arrows where boxOf[arrow.from] != boxOf[arrow.to] {
            if let same = drawn.firstIndex(where: { $0.from == boxOf[arrow.from] && $0.to == boxOf[arrow.to] }) {
                drawn[same].labels += arrow.labels
            } else {
                drawn.append(Arrow(from: boxOf[arrow.from], to: boxOf[arrow.to], labels: arrow.labels))
            }
        }
        let arrows = drawn
        let moves = drawn.map { arrow in
            (from: steps[boxes[arrow.from].last!].identifier,
             to: arrow.to == boxes.count ? Destination.endName : steps[boxes[arrow.to].first!].identifier)
        }
        let layout = DiagramLayout(nodes: boxes.count + 1, edges: arrows.map { ($0.from, $0.to) })
        let margin = 20.0, side = 140.0
        let width = layout.width + 2 * margin + side, height = layout.height + 2 * margin
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"diagram\" role=\"group\" aria-labelledby=\"diagram-title\""
        out += " viewBox=\"0 0 \(Self.number(width)) \(Self.number(height))\" width=\"\(Self.number(width))\" height=\"\(Self.number(height))\""
        out += " font-family=\"sans-serif\" font-size=\"13\">"
        out += "<title id=\"diagram-title\">The survey's steps and the moves between them; the list below says the same in words.</title>"
        out += "<defs><marker id=\"arrow-head\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto-start-reverse\">"
        out += "<path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#0b0c0c\"/></marker></defs>"
        let w = layout.nodeWidth, h = layout.nodeHeight
        // Labels of moves leaving one step are set on staggered lines, so that they do not overlap.
        var labelled: [Int: Int] = [:]
        for (number, arrow) in arrows.enumerated() {
            let start = layout.places[arrow.from], end = layout.places[arrow.to]
            let path: String
            var labelX: Double, labelY: Double
            if layout.backEdges.contains(number) {
                // Back up (a loop): out of the right side and into the right side, bowed outwards.
                let sx = margin + start.x + w, sy = margin + start.y + h / 2, tx = margin + end.x + w, ty = margin + end.y + h / 2
                let bow = 60.0 + Double(number % 3) * 20
                path = "M \(Self.number(sx)) \(Self.number(sy)) C \(Self.number(sx + bow)) \(Self.number(sy)) \(Self.number(tx + bow)) \(Self.number(ty)) \(Self.number(tx)) \(Self.number(ty))"
                labelX = max(sx, tx) + bow * 0.75 + 4
                labelY = (sy + ty) / 2
            } else {
                // Down through the waypoints of the layers it crosses, curving between them.
                var points = [(x: margin + start.x + w / 2, y: margin + start.y + h)]
                for waypoint in layout.waypoints[number] ?? [] {
                    points.append((margin + waypoint.x, margin + waypoint.y))
                    points.append((margin + waypoint.x, margin + waypoint.y + h))
                }
                points.append((margin + end.x + w / 2, margin + end.y))
                var drawn = "M \(Self.number(points[0].x)) \(Self.number(points[0].y))"
                for pair in stride(from: 0, to: points.count - 1, by: 2) {
                    let (a, b) = (points[pair], points[pair + 1])
                    let middle = (a.y + b.y) / 2
                    if pair > 0 { drawn += " L \(Self.number(a.x)) \(Self.number(a.y))" }
                    drawn += " C \(Self.number(a.x)) \(Self.number(middle)) \(Self.number(b.x)) \(Self.number(middle)) \(Self.number(b.x)) \(Self.number(b.y))"
                }
                path = drawn
                labelX = (points[0].x + points[1].x) / 2 + 6
                labelY = (points[0].y + points[1].y) / 2
                if !arrow.labels.isEmpty {
                    let sibling = labelled[arrow.from, default: 0]
                    labelled[arrow.from] = sibling + 1
                    labelY += Double(sibling) * 15 - 8
                    labelX = points[0].x + (points[1].x - points[0].x) * (0.45 + 0.15 * Double(sibling % 2)) + 6
                }
            }
            let moves = moves[number]
            out += "<g class=\"diagram-move\" data-from=\"\(HTMLEscaping.escape(moves.from))\" data-to=\"\(HTMLEscaping.escape(moves.to))\">"
            out += "<path d=\"\(path)\" fill=\"none\" stroke=\"#0b0c0c\" stroke-width=\"1.5\" marker-end=\"url(#arrow-head)\"/>"
            if !arrow.labels.isEmpty {
                let full = arrow.labels.joined(separator: "; ")
                out += "<text x=\"\(Self.number(labelX))\" y=\"\(Self.number(labelY))\" fill=\"#505a5f\"><title>\(HTMLEscaping.escape(full))</title>"
                out += HTMLEscaping.escape(Self.shortened(full, 34)) + "</text>"
            }
            out += "</g>"
        }
        for place in layout.places {
            let x = margin + place.x, y = margin + place.y
            if place.node == boxes.count {
                out += "<g class=\"diagram-end\"><rect x=\"\(Self.number(x + w / 4))\" y=\"\(Self.number(y))\" width=\"\(Self.number(w / 2))\" height=\"\(Self.number(h))\" rx=\"28\" fill=\"#0b0c0c\"/>"
                out += "<text x=\"\(Self.number(x + w / 2))\" y=\"\(Self.number(y + h / 2 + 5))\" text-anchor=\"middle\" fill=\"#ffffff\" font-weight=\"bold\">End</text></g>"
                continue
            }
            let members = boxes[place.node]
            let step = steps[members[0]]
            if members.count > 1 {
                let last = steps[members.last!].identifier
                let all = members.map { steps[$0].identifier }.joined(separator: ", ")
                out += "<a href=\"/preview/\(HTMLEscaping.escape(survey))/steps/\(HTMLEscaping.escape(step.identifier))\" class=\"diagram-step\">"
                out += "<title>\(HTMLEscaping.escape("\(members.count) steps in a row: \(all)"))</title>"
                out += "<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(w))\" height=\"\(Self.number(h))\" rx=\"4\" fill=\"#f3f2f1\" stroke=\"#0b0c0c\" stroke-width=\"1.5\"/>"
                out += "<rect x=\"\(Self.number(x + 4))\" y=\"\(Self.number(y + 4))\" width=\"\(Self.number(w - 8))\" height=\"\(Self.number(h - 8))\" rx=\"3\" fill=\"none\" stroke=\"#0b0c0c\" stroke-width=\"0.75\"/>"
                out += "<text x=\"\(Self.number(x + 10))\" y=\"\(Self.number(y + 24))\" font-weight=\"bold\" fill=\"#1d70b8\">\(HTMLEscaping.escape(Self.shortened("\(step.identifier) … \(last)", 28)))</text>"
                out += "<text x=\"\(Self.number(x + 10))\" y=\"\(Self.number(y + 40))\" fill=\"#505a5f\">\(members.count) steps in a row</text></a>"
                continue
            }
            let lost = unreachable.contains(step.identifier)
            var described = "\(step.identifier), \(step.kind.typeName)"
            if lost { described += ", no answers reach it" }
            if let skip = skips[step.identifier] { described += ", \(skip)" }
            out += "<a href=\"/preview/\(HTMLEscaping.escape(survey))/steps/\(HTMLEscaping.escape(step.identifier))\" class=\"diagram-step\">"
            out += "<title>\(HTMLEscaping.escape(described))</title>"
            out += "<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(w))\" height=\"\(Self.number(h))\" rx=\"4\""
            out += lost ? " fill=\"#fef7f6\" stroke=\"#d4351c\" stroke-width=\"3\" stroke-dasharray=\"6 4\"/>" : " fill=\"#f3f2f1\" stroke=\"#0b0c0c\" stroke-width=\"1.5\"/>"
            out += "<text x=\"\(Self.number(x + 10))\" y=\"\(Self.number(y + 20))\" font-weight=\"bold\" fill=\"#1d70b8\">\(HTMLEscaping.escape(Self.shortened(step.identifier, 26)))</text>"
            let kind = step.kind.typeName + (lost ? " · unreachable" : "")
            out += "<text x=\"\(Self.number(x + 10))\" y=\"\(Self.number(y + 36))\" fill=\"\(lost ? "#d4351c" : "#505a5f")\">\(HTMLEscaping.escape(kind))</text>"
            if let skip = skips[step.identifier] {
                out += "<text x=\"\(Self.number(x + 10))\" y=\"\(Self.number(y + 50))\" fill=\"#505a5f\" font-size=\"11\">\(HTMLEscaping.escape(Self.shortened(skip, 34)))</text>"
            }
            out += "</a>"
        }
        return out + "</svg>"
    }

    static func shortened(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
