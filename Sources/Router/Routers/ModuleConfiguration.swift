/// The base class of a module's configuration: what a caller sets before the destination exists.
///
/// A module declares a configuration *protocol* that inherits this class and lists `construct…`
/// methods, one per set of required initializer parameters; the module's own subclass stores what
/// they are given, and its factory reads it back with ``require(_:setBy:)``:
///
/// ```swift
/// protocol CartModuleConfig: ModuleConfiguration<any Cart> {
///     func constructCart(owner: String)
/// }
///
/// final class CartConfiguration: ModuleConfiguration<any Cart>, CartModuleConfig {
///     var owner: String?
///     func constructCart(owner: String) { self.owner = owner }
/// }
///
/// try registry.register(.cart, configuration: CartConfiguration.init) { config, _ in
///     CartImpl(owner: try config.require(config.owner, setBy: "constructCart(owner:)"))
/// }
/// ```
///
/// The handlers run once per lookup: ``successHandler`` with the prepared destination, ``errorHandler``
/// with the failure, then ``completionHandler`` with either. They are released after they ran.
///
/// The class is `nonisolated`, and so are its subclasses, even in a target whose default isolation is the
/// main actor: the caller's thread makes and configures the configuration before the factory runs.
nonisolated open class ModuleConfiguration<Destination> {
    /// Called with the destination once it is made and prepared.
    public var successHandler: ((Destination) -> Void)?
    /// Called with the error when making the destination failed.
    public var errorHandler: ((RouteError) -> Void)?
    /// Called last, with the destination or the error.
    public var completionHandler: ((Result<Destination, RouteError>) -> Void)?

    /// The `construct…` calls the caller made (recorded by ``recordConstruct(_:)``), and those the router
    /// read (through ``require(_:setBy:)``): a call made and never read is reported.
    private var constructed: [String] = []
    private var consumed: Set<String> = []

    /// Makes an empty configuration.
    public required init() {}

    /// Records that the caller made the `construct…` call `call`: call it from each `construct…` method.
    /// A call made and never read by the router (through ``require(_:setBy:)``) is reported to the
    /// registry's error handler once the destination is made, as ``RouteError/Code/unusedConstructCall``
    /// naming the key and the call; the lookup itself succeeds.
    ///
    /// ```swift
    /// func constructCart(owner: String) {
    ///     self.owner = owner
    ///     recordConstruct()   // "constructCart(owner:)"
    /// }
    /// ```
    /// - Parameter call: The call as it reads in code; the default is the calling method's name.
    public final func recordConstruct(_ call: String = #function) {
        if !constructed.contains(call) { constructed.append(call) }
    }

    /// The recorded `construct…` calls the router never read, in the order made.
    var unreadConstructCalls: [String] {
        constructed.filter { !consumed.contains($0) }
    }

    /// Returns a value a `construct…` call should have set, or throws an `invalidConfiguration` error that
    /// names the call when it was not made.
    ///
    /// - Parameters:
    ///   - value: The stored parameter, nil when the call was not made.
    ///   - call: The `construct…` method that sets it, as it reads in code, e.g. `"constructCart(owner:)"`.
    /// - Returns: The unwrapped value.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/invalidConfiguration`` when `value` is nil.
    public final func require<Value>(_ value: Value?, setBy call: String) throws -> Value {
        consumed.insert(call)
        guard let value else { throw MissingConstructCall(call: call) }
        return value
    }

    func finish(_ result: Result<Destination, RouteError>) {
        switch result {
        case .success(let destination): successHandler?(destination)
        case .failure(let error): errorHandler?(error)
        }
        completionHandler?(result)
        successHandler = nil
        errorHandler = nil
        completionHandler = nil
    }
}

/// Thrown by ``ModuleConfiguration/require(_:setBy:)``; turned into an `invalidConfiguration`
/// ``RouteError`` naming the key by the registry.
struct MissingConstructCall: Error {
    let call: String
}
