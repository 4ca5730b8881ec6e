import Foundation
import NestEggSupport

/// How a request is tried again: on a network error or a 5xx answer, after a delay that doubles
/// each time; on 429, after the `Retry-After` the API asks for (seconds). `sleep` is injected so
/// that tests run without waiting.
struct RetryPolicy: Sendable {
    /// Tries in all, the first included.
    var tries = 3
    /// Seconds before the second try; each later one waits twice as long as the one before.
    var firstDelay = 1.0
    /// The longest `Retry-After` waited for; an API that asks for more is an error.
    var maximumWait = 120.0
    var sleep: @Sendable (Double) async -> Void = { seconds in
        try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
    }

    func backoff(afterTry number: Int) -> Double { firstDelay * Double(1 << min(max(number - 1, 0), 16)) }
}

/// One API: its base URL and name, the token if it needs one, and the rules every request follows
/// (timeout, retries, what each status means). Messages name the request's path, never the token.
struct API: Sendable {
    let name: String
    let baseURL: String
    let token: AccessToken?
    let client: any HTTPClient
    let retry: RetryPolicy
    let timeout: Double
    let progress: @Sendable (String) -> Void
    /// The token scope a path needs, for the message when the API refuses the token.
    var scope: @Sendable (String) -> String? = { _ in nil }

    /// The body of a successful (2xx) answer to `GET path?query`.
    func get(_ path: String, query: String? = nil) async throws(FetchError) -> [UInt8] {
        // Without `optional`, a refusal throws: there is always a body.
        try await answer(path, query: query, optional: false) ?? []
    }

    /// The body of a successful answer to `GET path`, or `nil` when the API refuses the token the
    /// path (HTTP 403: a scope the token was not given), for what a fetch can do without. A token
    /// that is not valid (HTTP 401) still stops the fetch.
    func getIfPermitted(_ path: String) async throws(FetchError) -> [UInt8]? {
        try await answer(path, query: nil, optional: true)
    }

    private func answer(_ path: String, query: String?, optional: Bool) async throws(FetchError) -> [UInt8]? {
        let shown = query.map { path + "?" + $0 } ?? path
        guard let url = URL(string: baseURL + shown) else {
            throw FetchError(.usage, "\(name): \(baseURL + shown) is not a URL")
        }
        var request = HTTPRequest(url: url, headers: ["Accept": "application/json", "User-Agent": "nestegg/\(NestEggVersion.current)"],
                                  authorization: token, timeout: timeout)
        request.headers["Accept-Encoding"] = "identity"
        var number = 1
        while true {
            let retryIn: Double
            let why: String
            do {
                let response = try await client.send(request)
                switch response.status {
                case 200..<300:
                    return response.body
                case 403 where optional:
                    return nil
                case 401, 403:
                    throw refused(response.status, path: path)
                case 429:
                    let asked = response.headers["retry-after"].flatMap { Double(Text.trimmed($0)) }.flatMap { $0 >= 0 ? $0 : nil }
                    if let asked, asked > retry.maximumWait {
                        throw FetchError(.unavailable, "\(name) is limiting requests (HTTP 429 for \(shown)) and asks to wait \(Int(asked)) s"
                            + "fetch again later")
                    }
                    retryIn = asked ?? retry.backoff(afterTry: number)
                    why = "HTTP 429 (too many requests)"
                case 500..<600:
                    retryIn = retry.backoff(afterTry: number)
                    why = "HTTP \(response.status)"
                case 300..<400:
                    throw FetchError(.unavailable, "\(name) answered \(shown) with a redirect (HTTP \(response.status)), which nestegg does "
                        + "not follow (a token goes only where it is sent): check the base URL in nestegg.json")
                default:
                    throw FetchError(.unavailable, "\(name) answered HTTP \(response.status) for \(shown)")
                }
            } catch let error as FetchError {
                throw error
            } catch {
                retryIn = retry.backoff(afterTry: number)
                why = Self.reason(error)
            }
            guard number < retry.tries else {
                throw FetchError(.unavailable, "\(name) did not answer \(shown) after \(retry.tries) tries (last: \(why))")
            }
            number += 1
            progress("fetch: \(shown): \(why); trying again in \(Self.seconds(retryIn)) (try \(number) of \(retry.tries))")
            await retry.sleep(retryIn)
        }
    }

    private func refused(_ status: Int, path: String) -> FetchError {
        let what = status == 401 ? "HTTP 401: the token is not valid, or has expired" : "HTTP 403: the token may not do this"
        guard let token else { return FetchError(.unavailable, "\(name) refused \(path) (\(what))") }
        let needs = scope(path).map { " with the scope \($0)" } ?? ""
        return FetchError(.noPermission, "\(name) refused the token for \(path) (\(what)): check that \(token.source) holds a current "
            + "personal access token\(needs)")
    }

    /// What went wrong when no answer came, in words (never a URL's query or a header).
    static func reason(_ error: any Error) -> String {
        if let error = error as? TransportError { return error.reason }
        return (error as NSError).localizedDescription
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}

/// No answer came: the network, a timeout, a connection refused.
struct TransportError: Error, Sendable {
    let reason: String
}
