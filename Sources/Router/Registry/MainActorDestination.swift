/// Marks a type made and used on the main actor, a screen or a view model, so that registering it with a
/// nonisolated factory is a compiler warning that names `registerOnMainActor`, and a lookup of it outside
/// the main actor a typed error rather than an object built off the main actor.
///
/// ```swift
/// final class HomeViewModel: MainActorDestination {
///     var names: [String] = []
/// }
///
/// try registry.registerOnMainActor(.home) { _ in HomeViewModel() }   // what to write
/// try registry.register(.home) { _ in HomeViewModel() }              // warning: … use registerOnMainActor
/// ```
///
/// Why a marker: Swift records no isolation in a type's run-time metadata, so Router cannot tell from a
/// factory, from a key or from the object it made that the object belongs to the main actor. A main-actor
/// class whose initializer is the implicit one (its stored properties all have simple default values) may
/// be made by a nonisolated factory, so a plain `register` of it compiles and a lookup from a background
/// thread builds it there. Adopting this protocol says what the compiler cannot see:
///
/// - `register(_:file:line:factory:)` of a key whose destination type adopts it is deprecated, with a
///   message naming ``RouteRegistry/registerOnMainActor(_:file:line:factory:)`` (an error in a target
///   built with warnings as errors), and the registration is made as `registerOnMainActor` makes it: a
///   lookup outside the main actor fails with ``RouteError/Code/mainActorRequired`` before the factory
///   runs.
/// - The protocol is isolated to the main actor, so a type that adopts it in its declaration is too, in
///   any target.
///
/// Not caught: keys typed by a protocol (`RoutableService<any Screen>`: the compiler checks the key's
/// type, which is the protocol; there, the conversion to the protocol usually fails to compile instead,
/// see <doc:AppsIsolatedToTheMainActor>), and the other registration forms (`as:`, `initializer:`,
/// `arguments:`).
@MainActor
public protocol MainActorDestination {}

extension RouteRegistry {
    /// Registers a nonisolated factory for a destination made on the main actor: deprecated, use
    /// ``registerOnMainActor(_:file:line:factory:)``.
    ///
    /// The registration is made as `registerOnMainActor` makes it: a lookup from main-actor code runs the
    /// factory there, and any other fails with ``RouteError/Code/mainActorRequired`` before it runs.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    ///   - factory: Makes the destination.
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @available(
        *, deprecated,
        message:
            "the destination is a MainActorDestination, made on the main actor: register it with registerOnMainActor"
    )
    @discardableResult
    public func register<Destination: MainActorDestination>(
        _ key: RoutableService<Destination>, file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (inout Resolver) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        try registerOnMainActor(key, file: file, line: line) { resolver in try factory(&resolver) }
    }
}
