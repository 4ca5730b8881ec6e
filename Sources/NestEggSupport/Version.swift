/// NestEgg's version, in one place: `nestegg --version` prints it.
public enum NestEggVersion {
    public static let current = "0.9.0"
}
