import Foundation

/// One GET request. The token travels apart from the other headers, as an ``AccessToken``, so
/// that a request printed or dumped never shows it.
struct HTTPRequest: Sendable {
    var url: URL
    var headers: [String: String] = [:]
    var authorization: AccessToken?
    /// Seconds without progress before the request fails.
    var timeout: Double
}

struct HTTPResponse: Sendable {
    var status: Int
    /// Header names in lower case.
    var headers: [String: String] = [:]
    var body: [UInt8] = []
}

/// The transport: ``URLSessionClient`` for real, a fake in tests. Throws only when no answer
/// came (the network, a timeout); any answer, whatever its status, is a response.
protocol HTTPClient: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
