import Foundation
import GRDB
import PostgresNIO

/// Whether a store's error means "the database cannot be reached or cannot write just now"
/// (a primary lost, a failover under way, a connection refused or closed, a full disk), as
/// against a fault in the request or the program. A participant's write that fails this way
/// is answered with a page to try again, its input kept, and a 503 with Retry-After.
public enum StoreFailure {
    /// What a 503 asks the client to wait, in seconds: about as long as a failover takes to settle.
    public static let retryAfterSeconds = "2"

    public static func isUnavailable(_ error: any Error) -> Bool {
        switch error {
        case let error as RunStoreError:
            if case .unavailable = error.kind { return true }
            return false
        case let error as PostgresTransactionError:
            return [error.beginError, error.closureError, error.commitError].contains { $0.map(isUnavailable) ?? false }
        case let error as PSQLError:
            // No server answer at all: the connection failed, closed or timed out.
            guard let state = error.serverInfo?[.sqlState] else { return true }
            // 08: connection exception; 57P: operator intervention (shutdown, crash);
            // 53: insufficient resources; 25006: read-only transaction (a demoted primary).
            return state.hasPrefix("08") || state.hasPrefix("57P") || state.hasPrefix("53") || state == "25006"
        case let error as DatabaseError:
            return [.SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_IOERR, .SQLITE_FULL, .SQLITE_CANTOPEN].contains(error.resultCode)
        default:
            return false
        }
    }
}
