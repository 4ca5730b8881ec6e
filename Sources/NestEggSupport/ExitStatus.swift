/// nestegg's exit statuses, from sysexits.h: one list for every command (build, check, verify,
/// merge, fetch).
public enum ExitStatus: Int32, Sendable {
    case success = 0
    /// EX_USAGE: the command line is wrong (a contradictory option, a path nestegg will not write).
    case usage = 64
    /// EX_DATAERR: the input data is wrong.
    case dataError = 65
    /// EX_NOINPUT: the data folder does not exist or cannot be read.
    case noInput = 66
    /// EX_UNAVAILABLE: a tool the build needs is missing, or an API could not be reached.
    case unavailable = 69
    /// EX_SOFTWARE: a bug in nestegg.
    case software = 70
    /// EX_CANTCREAT: the output cannot be written.
    case cannotCreate = 73
    /// EX_PROTOCOL: an API answered with something other than JSON of the expected shape.
    case protocolError = 76
    /// EX_NOPERM: no token, a token file others may read, or a token the API refused.
    case noPermission = 77
    /// EX_CONFIG: a template is wrong.
    case configError = 78
}
