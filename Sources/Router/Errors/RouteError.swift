/// The one error type Router throws: what went wrong (``code``), for which key, along which
/// resolution path, and what to do about it.
///
/// It prints as a sentence:
///
/// ```text
/// No router is registered for RoutableService<any Engine> (resolving Car → Engine).
/// Hint: registered for the same protocol: RoutableService<any Engine>[tag: Diesel].
/// ```
public struct RouteError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added in minor releases, so `switch` over
    /// codes with a `default` case.
    public let code: Code
    /// The key that failed, as it reads in code, e.g. `RoutableService<any Engine>`.
    public let key: String
    /// The resolution path from the outermost lookup to the failing key, e.g. `["Car", "Engine"]`.
    public let path: [String]
    /// What happened, as one sentence, without the path and hint.
    public let reason: String
    /// What to do about it: registered candidates, the missing `construct…` call, and so on.
    ///
    /// A hint that lists what is registered (the keys of a missing key's protocol, the known identifiers or
    /// path patterns) is written when first read, not when the lookup fails: a miss among many keys costs
    /// about what a hit costs, and an error whose hint is never read never pays for the list (pinned by
    /// `twoThousandMissesAmongAHundredThousandNamedKeysFinishAndEachHintIsReadLater`).
    public var hint: String? { hintText.text }
    /// The error a factory threw, for ``Code/factoryFailed``.
    public let underlyingError: (any Error)?
    /// The hint, as given or as a list written when first read.
    private let hintText: HintText

    /// Makes an error. Router makes these itself; the initializer is public so that routers and
    /// configurations written by users can report failures in the same shape.
    ///
    /// Control characters in the texts are escaped (see ``displayable(_:keepingNewlines:)``); the reason
    /// keeps its line breaks.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - key: The key that failed, as it reads in code.
    ///   - path: The resolution path, outermost first.
    ///   - reason: One sentence saying what happened.
    ///   - hint: What to do about it.
    ///   - underlyingError: The error that caused this one, if any.
    public init(
        _ code: Code, key: String, path: [String] = [], reason: String, hint: String? = nil,
        underlyingError: (any Error)? = nil
    ) {
        // Escaped here, once, so that no message can carry a control character from input: see
        // `displayable(_:keepingNewlines:)`.
        self.init(
            code, key: key, path: path, reason: reason, hintText: .given(hint.map { Self.displayable($0) }),
            underlyingError: underlyingError)
    }

    /// Makes an error whose hint `makeHint` writes when it is first read (escaped then, as any hint).
    init(
        _ code: Code, key: String, path: [String] = [], reason: String,
        deferredHint makeHint: @escaping @Sendable () -> String
    ) {
        self.init(code, key: key, path: path, reason: reason, hintText: .deferred(DeferredHint(makeHint)))
    }

    private init(
        _ code: Code, key: String, path: [String], reason: String, hintText: HintText,
        underlyingError: (any Error)? = nil
    ) {
        self.code = code
        self.key = Self.displayable(key)
        self.path = path.map { Self.displayable($0) }
        self.reason = Self.displayable(reason, keepingNewlines: true)
        self.hintText = hintText
        self.underlyingError = underlyingError
    }

    /// The whole message: the reason, the resolution path (when it is longer than the key and the reason
    /// does not already show it), and the hint.
    public var description: String {
        var text = reason
        if path.count > 1 && !reason.contains(path.joined(separator: " → ")) {
            if text.hasSuffix(".") { text.removeLast() }
            text += " (resolving \(path.joined(separator: " → ")))."
        }
        if let hint { text += " Hint: \(hint)" }
        return text
    }

    func with(path newPath: [String]) -> RouteError {
        RouteError(
            code, key: key, path: newPath, reason: reason, hintText: hintText, underlyingError: underlyingError)
    }
}

/// A ``RouteError``'s hint: the text given, or one written when first read.
private enum HintText: Sendable {
    case given(String?)
    case deferred(DeferredHint)

    var text: String? {
        switch self {
        case .given(let text): text
        case .deferred(let deferred): deferred.text
        }
    }
}

/// A hint written by a closure when first read, then kept: the list of what is registered, which costs a
/// pass over every key, is paid for only by the code that reads it, once per error.
private final class DeferredHint: Sendable {
    private let make: @Sendable () -> String
    /// The hint once written, escaped; written under the lock, so that two readers write it once.
    private let written = Locked<String?>(nil)

    init(_ make: @escaping @Sendable () -> String) {
        self.make = make
    }

    var text: String {
        written.withLock { written in
            if let written { return written }
            let text = RouteError.displayable(make())
            written = text
            return text
        }
    }
}

extension RouteError {
    /// The kind of a ``RouteError``. A struct around a private value, so that codes can be added
    /// without breaking anyone's `switch`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Sendable {
            case unregisteredKey
            case unknownIdentifier
            case ambiguousRegistration
            case destinationTypeMismatch
            case invalidConfiguration
            case factoryFailed
            case registrationAfterSeal
            case duplicateIdentifier
            case circularDependency
            case notSealed
            case resolutionTooDeep
            case validationFailed
            case sealInProgress
            case scopeClosed
            case captiveDependency
            case argumentMismatch
            case asyncOnly
            case unknownPath
            case invalidPath
            case overRoute
            case actionFailed
            case destinationUnavailable
            case routeCancelled
            case destinationLeaked
            case exclusiveRegistration
            case mainActorRequired
            case unusedConstructCall
            case injectedOutsideLookup
            case heldByAsyncLookup
            case undeclaredDependency
            case invalidModuleRecord
            case pluginLoadFailed
            case discoveryUnavailable
            case shutDown
            case teardownFailed
            case teardownWithoutSingleton

            case outsideRequestScope
            case notSupplied

            case overrideNotSeenByParent
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The code's name, e.g. `unregisteredKey`.
        public var description: String { value.rawValue }

        /// No router is registered for the key.
        public static let unregisteredKey = Code(.unregisteredKey)
        /// No router is registered under the string identifier.
        public static let unknownIdentifier = Code(.unknownIdentifier)
        /// Several routers serve the key and none is marked as the default.
        public static let ambiguousRegistration = Code(.ambiguousRegistration)
        /// A destination or configuration is not of the type the caller or the key asks for.
        public static let destinationTypeMismatch = Code(.destinationTypeMismatch)
        /// A required `construct…` call was not made; no destination was made.
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// A factory, preparation or hook threw; ``RouteError/underlyingError`` holds what it threw.
        public static let factoryFailed = Code(.factoryFailed)
        /// A registration was attempted after the registry was sealed.
        public static let registrationAfterSeal = Code(.registrationAfterSeal)
        /// Two routers claim the same string identifier.
        public static let duplicateIdentifier = Code(.duplicateIdentifier)
        /// The dependencies form a cycle made only of initializer edges, which no order can build.
        public static let circularDependency = Code(.circularDependency)
        /// A lookup was made before the registry was sealed.
        public static let notSealed = Code(.notSealed)
        /// A resolution went deeper than the registry's depth limit.
        public static let resolutionTooDeep = Code(.resolutionTooDeep)
        /// Sealing found problems; ``RouteError/reason`` lists every one.
        public static let validationFailed = Code(.validationFailed)
        /// `seal()` was called while the registry was already sealing (from an eager singleton's factory).
        public static let sealInProgress = Code(.sealInProgress)
        /// A lookup used a custom scope that was closed.
        public static let scopeClosed = Code(.scopeClosed)
        /// A longer-lived instance would capture a shorter-lived one (a singleton depending on a graph- or
        /// custom-scoped key).
        public static let captiveDependency = Code(.captiveDependency)
        /// The arguments given at lookup do not match, in number or type, those the factory takes.
        public static let argumentMismatch = Code(.argumentMismatch)
        /// A key registered with only an async factory was looked up synchronously.
        public static let asyncOnly = Code(.asyncOnly)
        /// No registered path pattern matches the path.
        public static let unknownPath = Code(.unknownPath)
        /// A path matches a pattern's literal segments but a parameter is missing or malformed.
        public static let invalidPath = Code(.invalidPath)
        /// A route was performed while it was already routing (ZIKRouter's OverRoute).
        public static let overRoute = Code(.overRoute)
        /// A route action is not possible in the route's state: removing before performing, or after the
        /// destination is gone.
        public static let actionFailed = Code(.actionFailed)
        /// The router produced no destination, or the presenter could not show it.
        public static let destinationUnavailable = Code(.destinationUnavailable)
        /// An interceptor cancelled the route before it was performed.
        public static let routeCancelled = Code(.routeCancelled)
        /// A removed destination was still alive after the leak-check delay.
        public static let destinationLeaked = Code(.destinationLeaked)
        /// A registration claimed a key exclusively, and another registration serves it too.
        public static let exclusiveRegistration = Code(.exclusiveRegistration)
        /// A key whose factory runs on the main actor was looked up from another thread; or, found at
        /// sealing, a registration that is always built off the main actor (an eager singleton, an async
        /// factory) needs one.
        public static let mainActorRequired = Code(.mainActorRequired)
        /// Reported, not thrown: a module's configuration received a `construct…` call (recorded with
        /// ``ModuleConfiguration/recordConstruct(_:)``) that its router never read.
        public static let unusedConstructCall = Code(.unusedConstructCall)
        /// An ``Injected`` property was initialized outside any lookup (its object was not made by a
        /// factory the registry runs), so there was nothing to resolve it from.
        public static let injectedOutsideLookup = Code(.injectedOutsideLookup)
        /// A synchronous lookup needed a shared instance that an async lookup has made but holds back until
        /// it ends (its preparation needs an object that lookup is still making). The async lookup may be
        /// suspended, so the synchronous one fails at once instead of blocking its thread, which the async
        /// lookup may need to resume.
        public static let heldByAsyncLookup = Code(.heldByAsyncLookup)
        /// A lookup took an edge its registration did not declare. Reported, not thrown: to the error
        /// handler the first time a registration that declared other edges takes it; and listed, for every
        /// registration, by `RouterTesting`'s `verifyByMaking()`.
        public static let undeclaredDependency = Code(.undeclaredDependency)

        /// A discovery record could not be used: another version, no accessor, or a module made by another
        /// copy of Router (see ``ModuleDiscovery``).
        public static let invalidModuleRecord = Code(.invalidModuleRecord)
        /// A plugin library, or its directory, could not be loaded or declares no module.
        public static let pluginLoadFailed = Code(.pluginLoadFailed)
        /// Module discovery is not available in this build (before Swift 6.3, or on an unsupported platform).
        public static let discoveryUnavailable = Code(.discoveryUnavailable)

        /// A lookup was made after ``RouteRegistry/shutdown()`` began, or a singleton's factory returned
        /// after it began (the instance was torn down).
        public static let shutDown = Code(.shutDown)
        /// ``RouteRegistry/shutdown()`` ran every teardown and some failed; the reason lists each.
        public static let teardownFailed = Code(.teardownFailed)
        /// A registration that is not a singleton or an eager singleton declares a teardown (`.teardown { … }`),
        /// which would never run: sealing reports it.
        public static let teardownWithoutSingleton = Code(.teardownWithoutSingleton)

        /// A request-scoped key (``Scope/request``), or one supplied per request scope
        /// (``RouteRegistry/registerSupplied(_:file:line:)``), was looked up outside any ``RequestScope``.
        public static let outsideRequestScope = Code(.outsideRequestScope)
        /// A key supplied per request scope was looked up in a ``RequestScope`` that did not supply it, or
        /// ``RequestScope/supply(_:for:)`` was given a key not declared as supplied, or one already supplied.
        public static let notSupplied = Code(.notSupplied)

        /// A warning, not a failure: a child registry registers a key that a shared registration of its
        /// parent (a singleton, weak singleton, eager singleton or custom-scoped one) declares as a dependency.
        /// The parent's shared instance is built from the parent's registrations, so it never sees the
        /// child's registration. Listed in ``ValidationReport/warnings`` and reported to the child's error
        /// handler when it seals; sealing succeeds.
        public static let overrideNotSeenByParent = Code(.overrideNotSeenByParent)
    }
}
