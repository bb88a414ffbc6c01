import Foundation
import Glibc
import Synchronization

// `load`: requests at a constant arrival rate (an open loop), each request's latency measured
// from the moment it was due to start, not from when a connection was free to send it. A
// closed loop (wrk) sends the next request only when one is answered, so a server that stalls
// is sent less and its stall hides in the few requests that waited (coordinated omission);
// here every due request that could not start on time counts the wait.
//
//   load --port P --rate R --duration S [--warmup S] [--connections C] [--mode get|cycle]
//        --survey NAME --questions N --participants FILE [--window W]
//
// FILE is the benchmark's participants file (bench/lua/participants.lua describes it). Each
// connection has its own thread, its own participants (every C-th line, W of them at a time,
// the rest fresh sessions that replace a participant whose run is complete), and visits them
// in turn, so two requests for one run never race. Request k is due at start + k / R; a thread
// takes the next due request, sleeps until it is due, sends it and waits for the answer.
// `get` shows each participant their current step; `cycle` shows it and then posts its
// answer, as the benchmark's wrk script does. Prints one JSON object.

struct Options {
    var host = "127.0.0.1"
    var port = 0
    var rate = 1000.0
    var duration = 10.0
    var warmup = 0.0
    var connections = 32
    var mode = "cycle"
    var survey = ""
    var questions = 10
    var participants = ""
    var window = 16
}

func parse(_ arguments: [String]) -> Options {
    var options = Options()
    var index = 1
    func value() -> String {
        index += 1
        guard index < arguments.count else { fail("\(arguments[index - 1]) needs a value") }
        return arguments[index]
    }
    while index < arguments.count {
        switch arguments[index] {
        case "--host": options.host = value()
        case "--port": options.port = Int(value()) ?? 0
        case "--rate": options.rate = Double(value()) ?? 0
        case "--duration": options.duration = Double(value()) ?? 0
        case "--warmup": options.warmup = Double(value()) ?? 0
        case "--connections": options.connections = Int(value()) ?? 0
        case "--mode": options.mode = value()
        case "--survey": options.survey = value()
        case "--questions": options.questions = Int(value()) ?? 0
        case "--participants": options.participants = value()
        case "--window": options.window = Int(value()) ?? 0
        default: fail("unknown argument \(arguments[index])")
        }
        index += 1
    }
    guard options.port > 0, options.rate > 0, options.duration > 0, options.connections > 0, options.window > 0,
          ["get", "cycle"].contains(options.mode), !options.survey.isEmpty, !options.participants.isEmpty else {
        fail("usage: load --port P --rate R --duration S --survey NAME --questions N --participants FILE")
    }
    return options
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("load: \(message)\n".utf8))
    exit(64)
}

func monotonicNanoseconds() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return now.tv_sec * 1_000_000_000 + now.tv_nsec
}

func sleep(until nanoseconds: Int) {
    var due = timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, nil) == EINTR {}
}

/// One simulated participant, as the wrk script keeps them.
struct Participant {
    var cookie: String
    var csrf: String
    /// The token of the run a fresh session's first answer starts.
    var then: String?
    var answered: Int
    var showsNext: Bool
}

/// What one connection's thread saw.
struct Tally {
    var latencies: [Int] = []
    var statuses = [0, 0, 0, 0, 0]  // 1xx…5xx
    var errors = 0
    var late = 0
    var completed = 0
    var starved = 0
    var posts = 0
    var gets = 0
}

let options = parse(CommandLine.arguments)
let lines: [String] = {
    guard let text = try? String(contentsOfFile: options.participants, encoding: .utf8) else { fail("cannot read \(options.participants)") }
    return text.split(separator: "\n").map(String.init)
}()
let interval = 1e9 / options.rate
let nextSlot = Atomic<Int>(0)
let tallies = Mutex<[Tally]>([])
let start = monotonicNanoseconds() + 200_000_000
let measuredFrom = start + Int(options.warmup * 1e9)
let end = measuredFrom + Int(options.duration * 1e9)
let done = DispatchSemaphore(value: 0)

func participants(of thread: Int) -> (window: [Participant], fresh: [Participant]) {
    var window: [Participant] = [], fresh: [Participant] = []
    for (index, line) in lines.enumerated() where index % options.connections == thread {
        let fields = line.split(separator: " ").map(String.init)
        guard fields.count >= 3 else { continue }
        var participant = Participant(cookie: "survey_session=" + fields[0], csrf: fields[1], then: nil, answered: 0, showsNext: true)
        if fields[2] == "-" {
            participant.then = fields.count > 3 ? fields[3] : nil
        } else {
            participant.answered = Int(fields[2]) ?? 0
            // half begin with the GET of their current step, so GETs and POSTs mix at once
            participant.showsNext = options.mode == "get" || window.count % 2 == 0
        }
        if window.count < options.window { window.append(participant) } else { fresh.append(participant) }
    }
    return (window, fresh)
}

/// The next request of a connection's participants, and what it changes in them.
func request(_ window: inout [Participant], _ position: inout Int, _ fresh: inout ArraySlice<Participant>, _ tally: inout Tally) -> [UInt8] {
    let index = position
    position = (position + 1) % window.count
    let path = "/surveys/" + options.survey
    var participant = window[index]
    if participant.showsNext {
        participant.showsNext = options.mode == "get"
        window[index] = participant
        tally.gets += 1
        return Array("GET \(path) HTTP/1.1\r\nHost: \(options.host)\r\nCookie: \(participant.cookie)\r\n\r\n".utf8)
    }
    let question = participant.answered + 1
    let token = participant.csrf
    participant.answered = question
    participant.showsNext = true
    if let then = participant.then {
        participant.csrf = then
        participant.then = nil
    }
    window[index] = participant
    if question >= options.questions {
        tally.completed += 1
        if let next = fresh.popFirst() {
            window[index] = next
        } else {
            tally.starved += 1
            window[index] = Participant(cookie: participant.cookie, csrf: participant.csrf, then: nil, answered: 0, showsNext: true)
        }
    }
    tally.posts += 1
    let body = "_csrf=\(token)&q\(question)=\(question % 5 + 1)&_action=next"
    return Array(("POST \(path) HTTP/1.1\r\nHost: \(options.host)\r\nCookie: \(participant.cookie)\r\n"
        + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body).utf8)
}

for thread in 0..<options.connections {
    Thread {
        var (window, freshList) = participants(of: thread)
        var fresh = freshList[...]
        var tally = Tally()
        var connection = Connection(host: options.host, port: options.port)
        var position = 0
        while !window.isEmpty {
            let slot = nextSlot.add(1, ordering: .relaxed).oldValue
            let due = start + Int(Double(slot) * interval)
            if due >= end { break }
            sleep(until: due)
            let bytes = request(&window, &position, &fresh, &tally)
            if monotonicNanoseconds() - due > 1_000_000 { tally.late += 1 }
            guard let status = connection.exchange(bytes) else {
                tally.errors += 1
                continue
            }
            guard due >= measuredFrom else { continue }
            tally.latencies.append(monotonicNanoseconds() - due)
            tally.statuses[min(max(status / 100, 1), 5) - 1] += 1
        }
        tallies.withLock { $0.append(tally) }
        done.signal()
    }.start()
}
for _ in 0..<options.connections { done.wait() }

let all = tallies.withLock { $0 }
let latencies = all.flatMap(\.latencies).sorted()
func percentile(_ p: Double) -> Double {
    guard !latencies.isEmpty else { return 0 }
    let rank = min(latencies.count - 1, Int((p / 100 * Double(latencies.count)).rounded(.up)) - 1)
    return Double(latencies[max(0, rank)]) / 1e6
}
let statuses = (0..<5).map { kind in all.reduce(0) { $0 + $1.statuses[kind] } }
let report: [String: Any] = [
    "rate": options.rate, "duration_s": options.duration, "connections": options.connections, "mode": options.mode,
    "requests": latencies.count, "achieved_rps": Double(latencies.count) / options.duration,
    "p50_ms": percentile(50), "p90_ms": percentile(90), "p99_ms": percentile(99), "p999_ms": percentile(99.9),
    "p9999_ms": percentile(99.99), "max_ms": latencies.last.map { Double($0) / 1e6 } ?? 0,
    "status": ["1xx": statuses[0], "2xx": statuses[1], "3xx": statuses[2], "4xx": statuses[3], "5xx": statuses[4]],
    "errors": all.reduce(0) { $0 + $1.errors }, "late_starts": all.reduce(0) { $0 + $1.late },
    "completed": all.reduce(0) { $0 + $1.completed }, "starved": all.reduce(0) { $0 + $1.starved },
    "gets": all.reduce(0) { $0 + $1.gets }, "posts": all.reduce(0) { $0 + $1.posts },
]
let json = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
FileHandle.standardOutput.write(json + Data("\n".utf8))
