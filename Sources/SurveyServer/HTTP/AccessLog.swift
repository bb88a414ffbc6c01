import Foundation
import Hummingbird
import Prometheus
import ServiceLifecycle

/// One line per request on standard output: time, method, route pattern, status and duration.
/// Never the path as sent (it may hold a start or resume token), a query string, a cookie or
/// a body. Lines are kept in memory and written in batches by `AccessLogWriter`, or at once
/// when 16 KiB are waiting, so a request does not wait on a write.
final class AccessLog: @unchecked Sendable {
    /// Bytes waiting that make the request adding them write the batch itself.
    static let batchLimit = 16 * 1024

    private let lock = NSLock()
    private var pending: [UInt8] = []
    private var second = 0
    private var stamp = ""
    private let write: @Sendable ([UInt8]) -> Void

    /// - Parameter write: where a batch goes; standard output by default.
    init(write: @escaping @Sendable ([UInt8]) -> Void = AccessLog.writeToStandardOutput) {
        self.write = write
        pending.reserveCapacity(Self.batchLimit)
    }

    /// Adds the line of one request, formatted straight into the waiting bytes.
    func record(method: String, route: String, status: Int, duration: Duration, requestID: String? = nil) {
        let micros = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        let now = time(nil)
        var batch: [UInt8]?
        lock.lock()
        if now != second {
            second = now
            stamp = Self.format(now)
        }
        pending.append(contentsOf: stamp.utf8)
        pending.append(0x20)
        pending.append(contentsOf: method.utf8)
        pending.append(0x20)
        pending.append(contentsOf: route.utf8)
        pending.append(0x20)
        appendDigits(Int64(status), minimum: 1)
        pending.append(0x20)
        appendDigits(micros / 1000, minimum: 1)
        pending.append(0x2E)
        appendDigits(micros % 1000, minimum: 3)
        pending.append(contentsOf: "ms".utf8)
        if let requestID {
            pending.append(contentsOf: " request=".utf8)
            pending.append(contentsOf: requestID.utf8)
        }
        pending.append(0x0A)
        if pending.count >= Self.batchLimit { batch = takePending() }
        lock.unlock()
        if let batch { write(batch) }
    }

    /// Appends a non-negative number in decimal, with leading zeros up to `minimum` digits.
    private func appendDigits(_ number: Int64, minimum: Int) {
        let start = pending.count
        var value = max(0, number)
        repeat {
            pending.append(UInt8(truncatingIfNeeded: 0x30 + value % 10))
            value /= 10
        } while value > 0 || pending.count - start < minimum
        pending[start...].reverse()
    }

    /// Writes whatever is waiting.
    func flush() {
        lock.lock()
        let batch = takePending()
        lock.unlock()
        if !batch.isEmpty { write(batch) }
    }

    private func takePending() -> [UInt8] {
        var batch: [UInt8] = []
        batch.reserveCapacity(Self.batchLimit)
        swap(&batch, &pending)
        return batch
    }

    /// A UTC time to the second, ISO 8601.
    private static func format(_ seconds: Int) -> String {
        var value = time_t(seconds)
        var parts = tm()
        gmtime_r(&value, &parts)
        func two(_ number: Int32) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    @Sendable static func writeToStandardOutput(_ bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes))
    }
}

/// Writes the access log's waiting lines every 100 ms, and the last ones when the server stops.
struct AccessLogWriter: Service {
    let log: AccessLog

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                log.flush()
            }
        }
        log.flush()
    }
}

/// Times every request into the request-duration histogram and, when there is an access log,
/// records it there. It runs outside the middleware that turns errors into pages, so it sees
/// the status the client gets. The route is the matched pattern (`/surveys/{survey}`), `static`
/// for a file of the public folder, or `-` when nothing matched.
struct RequestTimingMiddleware<Context: RequestContext>: RouterMiddleware {
    let histogram: DurationHistogram
    var accessLog: AccessLog?

    func handle(_ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            histogram.record(ContinuousClock.now - start)
            throw error
        }
        let duration = ContinuousClock.now - start
        histogram.record(duration)
        if let accessLog {
            let status = response.status.code
            let route = switch context.endpointPath {
            case nil, "NotFound": "-"
            case "FileMiddleware": "static"
            case let path?: path
            }
            accessLog.record(method: request.method.rawValue, route: route, status: status, duration: duration,
                             requestID: status >= 500 ? context.id : nil)
        }
        return response
    }
}
