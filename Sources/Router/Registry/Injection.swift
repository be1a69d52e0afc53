/// One property or method injection, or a preparation closure, run after the destination is made
/// (``Registration/injecting(_:_:)-(any ReferenceWritableKeyPath<Root,Value>&Sendable,_)``, ``Registration/preparing(declaring:_:)``).
///
/// Injections of an object run in the order they were added, after every factory of the lookup has
/// returned; an injection whose key closes a cycle back to an object still being prepared runs after the
/// others, and the `didFinishPrepare` closures run after all of them.
@usableFromInline
struct Injection<Destination>: Sendable {
    @usableFromInline let dependency: RouteDependency?
    @usableFromInline let apply: @Sendable (Destination, inout Resolver) throws -> Void

    @inlinable
    init(dependency: RouteDependency?, apply: @escaping @Sendable (Destination, inout Resolver) throws -> Void) {
        self.dependency = dependency
        self.apply = apply
    }
}
