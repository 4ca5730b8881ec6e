/// Everything loaded from the data folder: the input of the report stage.
public struct Dataset: Sendable {
    public var settings: Settings
    public var starling: [StarlingAccountData]

    public init(settings: Settings = Settings(), starling: [StarlingAccountData] = []) {
        self.settings = settings
        self.starling = starling
    }
}
