/// A property of a class, resolved when the object is made: inside the factory that makes it, joining
/// that factory's lookup; or, for an object made by hand, in the registry bound for injection.
///
/// ```swift
/// final class ProfileModel {
///     @Injected(.session) var session: any Session
///     @Injected(.analytics) var analytics: (any Analytics)?  // nil only when nothing is registered
/// }
///
/// try registry.register(.profile) { _ in ProfileModel() }
///     .dependencies(.initializer(.session), .initializer(.analytics).optional)
/// ```
///
/// The property is resolved in its initializer, on the thread (or in the async factory) that runs the
/// factory, so it takes part in that lookup exactly as `r.resolve` would: graph-scoped objects are
/// shared with it, a cycle back to an object still being made is a `circularDependency` error, the depth
/// guard applies, and overrides (`withOverrides`, the test trait) are seen.
///
/// **A failure fails the lookup, not the process.** When the dependency cannot be resolved, the factory
/// still returns (a property initializer cannot throw), and the engine then fails the factory's lookup
/// with the dependency's ``RouteError``, as if the factory had thrown it: the half-made object is dropped,
/// never handed to the caller nor kept as a shared instance. The optional form resolves to nil only when
/// nothing is registered for the key; every other failure fails the lookup too.
///
/// **Objects made by hand.** An object made outside any lookup (by `init()` in a test, a SwiftUI
/// preview, a view a UI framework makes) resolves its properties in the registry bound for injection:
/// the one the current task bound with ``RouteRegistry/withInjectionBinding(operation:)-hmwp`` (tests,
/// previews: scoped to the task, so parallel tests keep apart), else the one bound for the process with
/// ``RouteRegistry/bindForInjection()`` (the app, once at launch). Each property is then a top-level
/// lookup of that registry, as `makeDestination(to:)` is: a failure is reported to its error handler and
/// is the property's ``projectedValue``; overrides and the test trait apply. That lookup is not on the
/// main actor (an initializer cannot see its caller's isolation), so a main-actor-only dependency
/// resolves only where the engine takes the thread for the main actor's (the main thread on Apple
/// platforms) and is otherwise a ``RouteError/Code/mainActorRequired`` error.
///
/// With no binding, such an object has nothing to resolve from: its ``projectedValue`` (`$session`) is an
/// ``RouteError/Code/injectedOutsideLookup`` error that names the key and the fix, and reading the
/// property then stops the program with that message. Either way, an initializer parameter
/// (`register(_:initializer:)` auto-wires those) is the tool that needs no binding.
///
/// **Where it is the wrong tool.** A wrapped property cannot be `let`, so a `Sendable` class cannot hold
/// one (a `Sendable` struct or an actor can); use an initializer parameter there. Validation sees the
/// dependency when the registration declares it with `.dependencies(…)`, as for any lookup a factory
/// makes.
@propertyWrapper
public struct Injected<Value> {
    private let resolution: Result<Value, RouteError>

    /// Resolves `key` in the lookup that is making the enclosing object; made outside any lookup, in the
    /// registry bound for injection (see ``RouteRegistry/bindForInjection()``).
    ///
    /// - Parameter key: The key to resolve.
    public init(_ key: RoutableService<Value>) {
        resolution = Resolver.injected(key) { resolver in try resolver.resolve(key) }
    }

    /// Resolves `key` in the lookup that is making the enclosing object (made outside any lookup, in the
    /// registry bound for injection), or gives nil when nothing is registered for it. Every other failure
    /// fails the lookup (outside one, it is the ``projectedValue``), ``RouteError/Code/shutDown`` included:
    /// a registry that was shut down does not pass for one where the key is unregistered.
    ///
    /// - Parameter key: The key to resolve.
    public init<Wrapped>(_ key: RoutableService<Wrapped>) where Value == Wrapped? {
        resolution = Resolver.injected(key) { resolver in try resolver.resolveIfRegistered(key) }
    }

    /// The resolved dependency.
    ///
    /// Reading it when the resolution failed stops the program with the failure's message: inside a
    /// registry's factory that happens only if the object's own initializer reads it after the failure
    /// (the lookup fails once the factory returns); otherwise only for an object made outside any lookup,
    /// whose registry binding is missing or failed to resolve it.
    /// ``projectedValue`` tells the two states apart without stopping.
    public var wrappedValue: Value {
        switch resolution {
        case .success(let value): return value
        case .failure(let error): Self.unresolved(error)
        }
    }

    /// The resolution: the dependency, or the ``RouteError`` that kept it from being resolved (for
    /// example ``RouteError/Code/injectedOutsideLookup`` for an object made outside any lookup with no
    /// registry bound for injection).
    public var projectedValue: Result<Value, RouteError> { resolution }

    /// Stops the program for a read of a dependency that was never resolved. Not reachable from an
    /// object a lookup returned: a failed resolution fails that lookup, so the object is dropped.
    private static func unresolved(_ error: RouteError) -> Never {
        preconditionFailure("\(error)")
    }
}

/// A wrapper holds only its resolution, so it crosses actors when its value does.
extension Injected: Sendable where Value: Sendable {}

extension Resolver {
    /// The door for ``Injected``: runs `lookup` (a resolution of `key`) in the lookup running on this
    /// thread, or in the async lookup the current task runs, and records a failure in that lookup so that
    /// it fails once the running factory returns.
    ///
    /// Not inlined and never on a lookup's fast path: a property wrapper's resolution is a lookup from
    /// inside a factory, which is the slow, joined door anyway.
    static func injected<Destination, Found>(
        _ key: RoutableService<Destination>, _ lookup: (inout Resolver) throws -> Found
    ) -> Result<Found, RouteError> {
        // Borrowed: the thread-local slot keeps the context alive until the thread ends.
        let joined: Result<Found, RouteError>? = ThreadContext.currentRef().with { context in
            if let running = context.running {
                // Borrowed: the door that started the running lookup keeps its state alive until it ends,
                // which is after this call returns.
                return running.with { state in inject(key, lookup, in: state) }
            }
            if let joined = AsyncLookupBinding.joinable() {
                return context.withRunning(joined.state) { inject(key, lookup, in: joined.state) }
            }
            return nil
        }
        if let joined { return joined }
        guard let bound = InjectionBinding.current else { return .failure(RouteError.injectedOutsideLookup(key)) }
        return injectBound(key, lookup, in: bound)
    }

    /// An ``Injected`` property of an object made outside any lookup, with a registry bound for injection:
    /// a top-level lookup of that registry through its door, as `makeDestination(to:)` makes, so a failure
    /// reaches its error handler and the task's overrides apply. Nothing is left to fail afterwards: the
    /// failure is the property's projected value.
    ///
    /// The wrapper's initializer cannot know its caller's isolation (a stored property's initial value has
    /// no `#isolation`), so the lookup is not on the main actor: a main-actor factory runs only where the
    /// engine accepts the thread as the main actor's (the main thread on Apple platforms), and is
    /// otherwise a ``RouteError/Code/mainActorRequired`` error.
    private static func injectBound<Destination, Found>(
        _ key: RoutableService<Destination>, _ lookup: (inout Resolver) throws -> Found, in registry: RouteRegistry
    ) -> Result<Found, RouteError> {
        do {
            return .success(try registry.lookup { resolver in try lookup(&resolver) })
        } catch let error as RouteError {
            return .failure(error)
        } catch {
            return .failure(
                RouteError.injectionInterrupted(key.description, path: [key.keyDescription.short], by: error))
        }
    }

    private static func inject<Destination, Found>(
        _ key: RoutableService<Destination>, _ lookup: (inout Resolver) throws -> Found, in state: LookupState
    ) -> Result<Found, RouteError> {
        var resolver = Resolver(state: state)
        do {
            return .success(try lookup(&resolver))
        } catch {
            state.recordFailedInjection(error)
            if let routeError = error as? RouteError { return .failure(routeError) }
            return .failure(
                RouteError.injectionInterrupted(
                    key.description, path: resolver.pathTo(key.keyDescription.short), by: error))
        }
    }
}
