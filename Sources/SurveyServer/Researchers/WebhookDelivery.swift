import AsyncHTTPClient
import Crypto
import Foundation
import JSON
import Logging
import NIOCore
import NIOHTTP1
import Prometheus
import ServiceLifecycle
import SurveyStorage

/// Posts outbox events (completed runs) to the configured URL, signed with HMAC-SHA256 in
/// `X-Survey-Signature: sha256=<hex>`, with the event id in `X-Survey-Event` so a receiver can
/// drop a repeat. A receiver that is down loses nothing: the event stays in the outbox and is
/// tried again after 1, 2, 4… seconds, up to an hour between tries.
struct WebhookDelivery: Service {
    let store: any RunStore
    let url: String
    let secret: Data
    let clock: @Sendable () -> Date
    let logger: Logger
    /// `application/fhir+json` for QuestionnaireResponses, else `application/json`.
    var contentType = "application/json"
    /// Counts deliveries the audit log could not record.
    var auditWritesFailed: Counter?

    static func signature(of body: Data, secret: Data) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: secret))
        return "sha256=" + code.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }

    static func backoff(afterAttempts attempts: Int) -> TimeInterval {
        min(pow(2, Double(max(attempts - 1, 0))), 3600)
    }

    func run() async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let delivered = await deliverDue(with: client)
                if delivered == 0 { try? await Task.sleep(for: .milliseconds(500)) }
            }
        }
        try? await client.shutdown()
    }

    /// Delivers what is due now; returns how many events were tried.
    func deliverDue(with client: HTTPClient) async -> Int {
        let now = clock()
        guard let events = try? await store.claimDueEvents(now: now, lease: 60, limit: 16), !events.isEmpty else { return 0 }
        for event in events {
            let body = Data(event.payload.utf8)
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: contentType)
            request.headers.add(name: "X-Survey-Event", value: event.id.uuidString.lowercased())
            request.headers.add(name: "X-Survey-Signature", value: Self.signature(of: body, secret: secret))
            request.body = .bytes(ByteBuffer(bytes: Array(body)))
            var delivered = false
            var status: Int?
            do {
                let response = try await client.execute(request, timeout: .seconds(10))
                status = Int(response.status.code)
                delivered = (200..<300).contains(Int(response.status.code))
            } catch {
                delivered = false
            }
            await recordDelivery(event, delivered: delivered, status: status)
            if delivered {
                try? await store.eventDelivered(event)
            } else {
                let attempts = event.attempts + 1
                logger.warning("Webhook delivery failed; will retry", metadata: ["event": "\(event.id)", "attempts": "\(attempts)"])
                try? await store.eventFailed(event, attempts: attempts, nextAttemptAt: clock().addingTimeInterval(Self.backoff(afterAttempts: attempts)))
            }
        }
        return events.count
    }

    /// The delivery or failure in the audit log's `delivery` chain; a failure to write it is counted.
    private func recordDelivery(_ event: OutboxEvent, delivered: Bool, status: Int?) async {
        let entry = AuditEvent(delivered ? "webhook.delivered" : "webhook.failed", by: .system("webhook"), at: clock(), run: event.runID,
                               detail: .object(["event": .string(event.id.uuidString.lowercased()), "attempt": .number(Double(event.attempts + 1)),
                                                "status": status.map { .number(Double($0)) }]))
        do {
            try await store.appendAudit([entry], chain: AuditEntry.deliveryChain)
        } catch {
            auditWritesFailed?.increment()
        }
    }
}
