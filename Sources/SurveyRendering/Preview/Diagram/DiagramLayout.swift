import Foundation

/// A layered drawing of a directed graph, top to bottom, in the manner of Graphviz's `dot`:
/// edges that go back are set aside so the rest has no cycle; each node goes on the layer after
/// the deepest of its predecessors; nodes are ordered within a layer by the mean place of their
/// neighbours above, then below (a few sweeps); each layer is centred. Pure arithmetic: no text
/// measuring, every box the same size.
struct DiagramLayout {
    struct Placed {
        let node: Int
        let layer: Int
        let x: Double
        let y: Double
    }

    let nodeWidth: Double
    let nodeHeight: Double
    let columnGap: Double
    let layerGap: Double
    /// Each node's place, by node index.
    private(set) var places: [Placed] = []
    /// Edges that go back up (or to themselves): drawn beside the boxes.
    private(set) var backEdges: Set<Int> = []
    private(set) var width: Double = 0
    private(set) var height: Double = 0

    init(nodes: Int, edges: [(from: Int, to: Int)], nodeWidth: Double = 220, nodeHeight: Double = 56,
         columnGap: Double = 40, layerGap: Double = 90) {
        self.nodeWidth = nodeWidth
        self.nodeHeight = nodeHeight
        self.columnGap = columnGap
        self.layerGap = layerGap
        guard nodes > 0 else { return }
        // Back edges: those a depth-first walk from node 0 (then any node left) meets going up.
        var state = [UInt8](repeating: 0, count: nodes)   // 0 new, 1 on the walk, 2 done
        var outgoing = [[(edge: Int, to: Int)]](repeating: [], count: nodes)
        for (index, edge) in edges.enumerated() { outgoing[edge.from].append((index, edge.to)) }
        var back: Set<Int> = []
        for root in 0..<nodes where state[root] == 0 {
            var stack: [(node: Int, next: Int)] = [(root, 0)]
            state[root] = 1
            while let top = stack.last {
                if top.next < outgoing[top.node].count {
                    stack[stack.count - 1].next += 1
                    let (edge, target) = outgoing[top.node][top.next]
                    switch state[target] {
                    case 0:
                        state[target] = 1
                        stack.append((target, 0))
                    case 1:
                        back.insert(edge)
                    default:
                        break
                    }
                } else {
                    state[top.node] = 2
                    stack.removeLast()
                }
            }
        }
        backEdges = back
        // Layers: the longest path from a source, over the forward edges, in topological order.
        var incoming = [Int](repeating: 0, count: nodes)
        for (index, edge) in edges.enumerated() where !back.contains(index) { incoming[edge.to] += 1 }
        var layer = [Int](repeating: 0, count: nodes)
        var ready = (0..<nodes).filter { incoming[$0] == 0 }
        var order: [Int] = []
        while let node = ready.first {
            ready.removeFirst()
            order.append(node)
            for (edge, target) in outgoing[node] where !back.contains(edge) {
                layer[target] = max(layer[target], layer[node] + 1)
                incoming[target] -= 1
                if incoming[target] == 0 { ready.append(target) }
            }
        }
        // A forward edge longer than one layer runs through a thin waypoint on each layer it
        // crosses, which is ordered like a node, so that it passes between boxes, not through them.
        let layerCount = (layer.max() ?? 0) + 1
        var widths = [Double](repeating: nodeWidth, count: nodes)
        var layerOf = layer
        var links: [(from: Int, to: Int)] = []
        var routes: [Int: [Int]] = [:]
        for (index, edge) in edges.enumerated() where !back.contains(index) && edge.from != edge.to {
            var previous = edge.from
            var chain: [Int] = []
            for crossed in stride(from: layer[edge.from] + 1, to: layer[edge.to], by: 1) {
                let waypoint = widths.count
                widths.append(Self.waypointWidth)
                layerOf.append(crossed)
                chain.append(waypoint)
                links.append((previous, waypoint))
                previous = waypoint
            }
            links.append((previous, edge.to))
            if !chain.isEmpty { routes[index] = chain }
        }
        let all = widths.count
        var rows = [[Int]](repeating: [], count: layerCount)
        for node in order { rows[layer[node]].append(node) }
        for waypoint in nodes..<all { rows[layerOf[waypoint]].append(waypoint) }
        // Order within layers by the mean position of neighbours, down then up, four times.
        var position = [Double](repeating: 0, count: all)
        for row in rows { for (place, node) in row.enumerated() { position[node] = Double(place) } }
        var above = [[Int]](repeating: [], count: all), below = [[Int]](repeating: [], count: all)
        for link in links {
            above[link.to].append(link.from)
            below[link.from].append(link.to)
        }
        for sweep in 0..<4 {
            let downward = sweep % 2 == 0
            for index in (downward ? Array(1..<max(layerCount, 1)) : Array((0..<max(layerCount - 1, 0)).reversed())) {
                let neighbours = downward ? above : below
                rows[index].sort { left, right in
                    let a = Self.mean(neighbours[left].map { position[$0] }) ?? position[left]
                    let b = Self.mean(neighbours[right].map { position[$0] }) ?? position[right]
                    return a == b ? position[left] < position[right] : a < b
                }
                for (place, node) in rows[index].enumerated() { position[node] = Double(place) }
            }
        }
        func rowWidth(_ row: [Int]) -> Double { row.map { widths[$0] }.reduce(0, +) + Double(max(row.count - 1, 0)) * columnGap }
        width = rows.map(rowWidth).max() ?? nodeWidth
        height = Double(layerCount) * nodeHeight + Double(layerCount - 1) * layerGap
        var placed = [Placed?](repeating: nil, count: all)
        for (index, row) in rows.enumerated() {
            var x = (width - rowWidth(row)) / 2
            for node in row {
                placed[node] = Placed(node: node, layer: index, x: x, y: Double(index) * (nodeHeight + layerGap))
                x += widths[node] + columnGap
            }
        }
        places = placed.prefix(nodes).compactMap { $0 }.sorted { $0.node < $1.node }
        waypoints = routes.mapValues { chain in chain.compactMap { placed[$0] }.map { ($0.x + Self.waypointWidth / 2, $0.y) } }
    }

    static let waypointWidth = 16.0
    /// Where a long forward edge crosses each layer: the x of its passage and the layer's top.
    private(set) var waypoints: [Int: [(x: Double, y: Double)]] = [:]

    private static func mean(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }
}
