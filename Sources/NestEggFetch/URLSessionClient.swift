import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real transport: Foundation's `URLSession`, one ephemeral session per request (no cookies,
/// no cache, nothing kept on disk). Redirects are never followed: a request built with the token
/// would carry it to wherever a `Location` points, so a 3xx comes back as the answer.
struct URLSessionClient: HTTPClient {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: request.timeout)
        urlRequest.httpMethod = "GET"
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if let token = request.authorization { urlRequest.setValue("Bearer " + token.value, forHTTPHeaderField: "Authorization") }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = request.timeout
        configuration.timeoutIntervalForResource = request.timeout * 4
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        let delegate = SingleRequest()
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        return try await withCheckedThrowingContinuation { continuation in
            delegate.start(continuation)
            session.dataTask(with: urlRequest).resume()
        }
    }
}

/// Collects one task's answer and hands it to the waiting caller once.
private final class SingleRequest: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var body: [UInt8] = []
    private var redirect: HTTPURLResponse?
    private var continuation: CheckedContinuation<HTTPResponse, any Error>?

    func start(_ continuation: CheckedContinuation<HTTPResponse, any Error>) {
        lock.withLock { self.continuation = continuation }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { body.append(contentsOf: data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        lock.withLock { redirect = response }
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (waiting, body, redirect) = lock.withLock {
            let taken = (continuation, self.body, self.redirect)
            continuation = nil
            return taken
        }
        guard let waiting else { return }
        if let error {
            waiting.resume(throwing: TransportError(reason: (error as NSError).localizedDescription))
            return
        }
        guard let answer = task.response as? HTTPURLResponse ?? redirect else {
            waiting.resume(throwing: TransportError(reason: "no HTTP answer"))
            return
        }
        var headers: [String: String] = [:]
        for (name, value) in answer.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        waiting.resume(returning: HTTPResponse(status: answer.statusCode, headers: headers, body: body))
    }
}
