// One public overload per argument count (one, two, three), not one over a parameter pack. With a pack,
// a closure that does not spell its parameter types, `{ r, id in … r.resolve(…) }`, gets `r` as a `let`
// unless the pack holds exactly one type: Swift 6.3 keeps `inout` on a closure parameter only when the
// closure has as many parameters as the function type has before its pack is expanded, so
// `(inout Resolver, First, repeat each Argument)` compiled `{ r, a, b in }` and rejected `{ r, a in }` and
// `{ r, a, b, c in }` with "cannot use mutating member on immutable value: 'r' is a 'let' constant".
// A function type without a pack has no such step. The work stays in one pack-generic function below;
// more than three values go in one argument (a struct, or a tuple: `arguments: (String, Int, Bool, Int).self`).

extension RouteRegistry {
    /// Registers a factory that takes one runtime argument, given at each lookup and checked by type: a
    /// screen made for an identifier, say.
    ///
    /// ```swift
    /// try registry.register(.bookDetail, arguments: Int.self) { r, id in
    ///     BookDetailImpl(book: try r.resolve(.catalog).book(id))
    /// }
    /// let detail = try registry.makeDestination(to: .bookDetail, arguments: 3)
    /// ```
    ///
    /// A lookup whose arguments differ in number or type fails with ``RouteError/Code/argumentMismatch``,
    /// naming the expected and the given types; it never gives nil. A key may be registered once per
    /// argument list: the types a lookup passes pick the registration, and a lookup without arguments (or a
    /// dependency resolved without them) gets the key's registration that takes none. A shared instance
    /// keeps the arguments of the lookup that built it. Two and three arguments have their own forms; more
    /// go in one struct or tuple.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - first: The argument's type.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    ///   - factory: Makes the destination from the resolver and the argument.
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func register<Destination, First>(
        _ key: RoutableService<Destination>, arguments first: First.Type,
        file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (inout Resolver, First) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        try registerTakingArguments(key, ArgumentList(First.self), file: file, line: line, factory: factory)
    }

    /// Registers a factory that takes two runtime arguments, given at each lookup and checked by type.
    ///
    /// ```swift
    /// try registry.register(.greeting, arguments: String.self, Int.self) { r, name, times in
    ///     GreetingImpl(text: String(repeating: "Hi \(name)! ", count: times))
    /// }
    /// let greeting = try registry.makeDestination(to: .greeting, arguments: "Ann", 2)
    /// ```
    ///
    /// The arguments follow the rules of ``register(_:arguments:file:line:factory:)``.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - first: The first argument's type.
    ///   - second: The second argument's type.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    ///   - factory: Makes the destination from the resolver and the arguments.
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func register<Destination, First, Second>(
        _ key: RoutableService<Destination>, arguments first: First.Type, _ second: Second.Type,
        file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (inout Resolver, First, Second) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        try registerTakingArguments(key, ArgumentList(First.self, Second.self), file: file, line: line) {
            (resolver: inout Resolver, values: (First, Second)) in try factory(&resolver, values.0, values.1)
        }
    }

    /// Registers a factory that takes three runtime arguments, given at each lookup and checked by type.
    ///
    /// The arguments follow the rules of ``register(_:arguments:file:line:factory:)``.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - first: The first argument's type.
    ///   - second: The second argument's type.
    ///   - third: The third argument's type.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    ///   - factory: Makes the destination from the resolver and the arguments.
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func register<Destination, First, Second, Third>(
        _ key: RoutableService<Destination>, arguments first: First.Type, _ second: Second.Type,
        _ third: Third.Type, file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (inout Resolver, First, Second, Third) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        try registerTakingArguments(key, ArgumentList(First.self, Second.self, Third.self), file: file, line: line) {
            (resolver: inout Resolver, values: (First, Second, Third)) in
            try factory(&resolver, values.0, values.1, values.2)
        }
    }

    /// Registers a factory that takes one runtime argument and must run on the main actor: a screen made
    /// for an identifier, say.
    ///
    /// ```swift
    /// try registry.registerOnMainActor(.bookScreen, arguments: Int.self) { r, id in
    ///     BookScreen(book: try r.resolve(.catalog).book(id))
    /// }
    /// let screen = try registry.makeDestination(to: .bookScreen, arguments: 3)   // from main-actor code
    /// ```
    ///
    /// The arguments follow the rules of ``register(_:arguments:file:line:factory:)``; the main actor
    /// those of ``registerOnMainActor(_:file:line:factory:)``: a lookup made from main-actor code stays
    /// synchronous, and any other fails with ``RouteError/Code/mainActorRequired`` before the factory runs.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - first: The argument's type.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    ///   - factory: Makes the destination on the main actor from the resolver and the argument.
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func registerOnMainActor<Destination, First>(
        _ key: RoutableService<Destination>, arguments first: First.Type,
        file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @MainActor @Sendable (inout Resolver, First) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        try registerOnMainActorTakingArguments(key, file: file, line: line, factory: factory)
    }

    /// Registers a factory that takes two runtime arguments and must run on the main actor.
    ///
    /// The arguments follow the rules of ``register(_:arguments:file:line:factory:)``; the main actor
    /// those of ``registerOnMainActor(_:file:line:factory:)``.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - first: The first argument's type.
    ///   - second: The second argument's type.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    ///   - factory: Makes the destination on the main actor from the resolver and the arguments.
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func registerOnMainActor<Destination, First, Second>(
        _ key: RoutableService<Destination>, arguments first: First.Type, _ second: Second.Type,
        file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @MainActor @Sendable (inout Resolver, First, Second) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        try registerOnMainActorTakingArguments(key, file: file, line: line, factory: factory)
    }

    /// Registers a factory that takes three runtime arguments and must run on the main actor.
    ///
    /// The arguments follow the rules of ``register(_:arguments:file:line:factory:)``; the main actor
    /// those of ``registerOnMainActor(_:file:line:factory:)``.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - first: The first argument's type.
    ///   - second: The second argument's type.
    ///   - third: The third argument's type.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    ///   - factory: Makes the destination on the main actor from the resolver and the arguments.
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @inlinable @discardableResult
    public func registerOnMainActor<Destination, First, Second, Third>(
        _ key: RoutableService<Destination>, arguments first: First.Type, _ second: Second.Type,
        _ third: Third.Type, file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @MainActor @Sendable (inout Resolver, First, Second, Third) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        try registerOnMainActorTakingArguments(key, file: file, line: line, factory: factory)
    }

    /// Registers an async factory that takes one runtime argument, given at each async lookup and checked
    /// by type, as ``register(_:arguments:file:line:factory:)`` does for a synchronous one.
    ///
    /// ```swift
    /// try registry.registerAsync(.report, arguments: Int.self) { r, year async throws in
    ///     try await ReportImpl.load(year: year)
    /// }
    /// let report = try await registry.makeDestinationAsync(to: .report, arguments: 2026)
    /// ```
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - first: The argument's type.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    ///   - factory: Makes the destination from the resolver and the argument; may await.
    /// - Returns: The registration, to modify; its scope may be ``Scope/transient`` (default),
    ///   ``Scope/graph``, ``Scope/singleton``, ``Scope/eagerSingleton`` or ``Scope/request``.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func registerAsync<Destination, First>(
        _ key: RoutableService<Destination>, arguments first: First.Type,
        file: StaticString = #fileID, line: UInt = #line,
        factory: nonisolated(nonsending) @escaping @Sendable (inout Resolver, First) async throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        try registerAsyncTakingArguments(key, file: file, line: line, factory: factory)
    }

    /// Registers an async factory that takes two runtime arguments, given at each async lookup and checked
    /// by type.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - first: The first argument's type.
    ///   - second: The second argument's type.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    ///   - factory: Makes the destination from the resolver and the arguments; may await.
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func registerAsync<Destination, First, Second>(
        _ key: RoutableService<Destination>, arguments first: First.Type, _ second: Second.Type,
        file: StaticString = #fileID, line: UInt = #line,
        factory: nonisolated(nonsending) @escaping @Sendable (inout Resolver, First, Second) async throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        try registerAsyncTakingArguments(key, file: file, line: line, factory: factory)
    }

    /// Registers an async factory that takes three runtime arguments, given at each async lookup and
    /// checked by type; more go in one struct or tuple.
    /// - Parameters:
    ///   - key: The key the factory serves.
    ///   - first: The first argument's type.
    ///   - second: The second argument's type.
    ///   - third: The third argument's type.
    ///   - file: The registering file, for messages (leave the default).
    ///   - line: The registering line, for messages (leave the default).
    ///   - factory: Makes the destination from the resolver and the arguments; may await.
    /// - Returns: The registration, to modify.
    /// - Throws: ``RouteError`` with code ``RouteError/Code/registrationAfterSeal`` once sealed.
    @discardableResult
    public func registerAsync<Destination, First, Second, Third>(
        _ key: RoutableService<Destination>, arguments first: First.Type, _ second: Second.Type, _ third: Third.Type,
        file: StaticString = #fileID, line: UInt = #line,
        factory:
            nonisolated(nonsending) @escaping @Sendable (inout Resolver, First, Second, Third) async throws
            -> Destination
    ) throws -> Registration<Destination, Destination> {
        try registerAsyncTakingArguments(key, file: file, line: line, factory: factory)
    }

    /// The registration behind every `register(_:arguments:…)`: the factory's argument types
    /// (`expected`), checked against those of each lookup, and a factory that takes the values as one
    /// value, `Values`: the argument's type, or the tuple of the types in order (the layout a lookup writes,
    /// see `ArgumentHandoff`). One value rather than a pack: a closure converted to a pack's function type
    /// is called through a thunk that builds the pack (about 80 instructions a lookup of two arguments).
    /// Inlinable, so that the caller, which knows the types, makes the factory's call specialised for
    /// them: it reads the arguments with no runtime request for their metadata.
    @inlinable
    func registerTakingArguments<Destination, Values>(
        _ key: RoutableService<Destination>, _ expected: ArgumentList, file: StaticString, line: UInt,
        factory: @escaping @Sendable (inout Resolver, Values) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        let keyDescription = key.keyDescription
        var spec = RegistrationSpec<Destination> { resolver in
            try resolver.callTakingArguments(factory, takes: expected, for: keyDescription)
        }
        spec.argumentTypes = Values.self
        spec.argumentList = expected
        return try add(id: key.id, key: keyDescription, file: file, line: line, spec: spec)
    }

    /// The registration behind every `registerAsync(_:arguments:…)`: as ``registerTakingArguments``, with an
    /// async factory (a synchronous lookup of the key fails with ``RouteError/Code/asyncOnly``).
    func registerAsyncTakingArguments<Destination, each Argument>(
        _ key: RoutableService<Destination>, file: StaticString, line: UInt,
        factory:
            nonisolated(nonsending) @escaping @Sendable (inout Resolver, repeat each Argument) async throws
            -> Destination
    ) throws -> Registration<Destination, Destination> {
        let keyDescription = key.keyDescription
        let expected = ArgumentList(repeat (each Argument).self)
        var spec = RegistrationSpec<Destination> { resolver in
            throw RouteError.asyncOnly(keyDescription, path: resolver.pathHere(keyDescription.short))
        }
        spec.asyncFactory = { resolver in
            // Taken before the first await: the arguments are this factory's, not a later one's.
            try await resolver.callTakingArgumentsAsync(factory, takes: expected, for: keyDescription)
        }
        spec.argumentTypes = (repeat each Argument).self
        spec.argumentList = expected
        return try add(id: key.id, key: keyDescription, file: file, line: line, spec: spec)
    }

    /// The registration behind every `registerOnMainActor(_:arguments:…)`; inlinable, as
    /// ``registerTakingArguments``.
    @inlinable
    func registerOnMainActorTakingArguments<Destination, each Argument>(
        _ key: RoutableService<Destination>, file: StaticString, line: UInt,
        factory: @escaping @MainActor @Sendable (inout Resolver, repeat each Argument) throws -> Destination
    ) throws -> Registration<Destination, Destination> {
        let keyDescription = key.keyDescription
        // The arguments are passed to the main-actor factory, not captured: they need not be Sendable.
        let onMainActor = MainActorFunction<(repeat each Argument), Destination> { given, resolver in
            try factory(&resolver, repeat each given)
        }
        let registration = try registerTakingArguments(
            key, ArgumentList(repeat (each Argument).self), file: file, line: line
        ) { (resolver: inout Resolver, values: (repeat each Argument)) in
            try resolver.onMainActor(keyDescription, passing: values, onMainActor)
        }
        return try registration.change { $0.isMainActor = true }
    }

    /// The general lookup of ``makeDestination(to:arguments:isolation:preparation:)`` through the door:
    /// every case but a plain one (a built singleton, or a plain transient whose primary registration
    /// takes exactly `given`, see `Resolver.resolveTopLevel(_:given:arguments:preparation:in:reporting:isolation:)`).
    @usableFromInline @inline(never)
    func makeDestinationGenerally<Destination, each Argument>(
        to key: RoutableService<Destination>, given: ArgumentList, arguments: repeat each Argument,
        preparation: ((Destination) throws -> Void)?, onMainActor: Bool
    ) throws -> Destination {
        guard given.count > 0 else {
            return try lookup(onMainActor: onMainActor) { resolver in
                try resolver.resolveGenerally(key, given: given, preparation: preparation)
            }
        }
        return try ArgumentHandoff.with(given, repeat each arguments, making: Destination.self) { handoff in
            try lookup(onMainActor: onMainActor) { resolver in
                try resolver.resolveGenerally(key, given: given, handoff: handoff, preparation: preparation)
            }
        }
    }
}

extension Resolver {
    /// Takes the arguments handed to the factory that is starting (see `LookupState.withArguments`),
    /// checked against the types it takes (`expected`) and the type it makes. Inlinable: the check is a
    /// few comparisons; the errors are made out of line.
    @inlinable @inline(__always)
    mutating func takeArguments<Destination>(
        _ expected: ArgumentList, making _: Destination.Type, for key: KeyDescription
    ) throws -> ArgumentHandoff {
        let taken = state.frames.takeArguments()
        if let handoff = taken, handoff.fits(expected, making: Destination.self) { return handoff }
        throw argumentsDoNotFit(taken, expected, for: key)
    }

    /// The error of a factory whose lookup handed it no arguments, or arguments it does not take.
    @usableFromInline
    func argumentsDoNotFit(_ taken: ArgumentHandoff?, _ expected: ArgumentList, for key: KeyDescription) -> RouteError {
        guard let handoff = taken else {
            return RouteError.argumentsNotGiven(key, expected: expected, path: pathHere(key.short))
        }
        return RouteError.argumentsDoNotFit(key, expected: expected, given: handoff.given, path: pathHere(key.short))
    }

    /// Builds `entry` with runtime arguments handed to its factory.
    @usableFromInline
    mutating func build<Destination>(_ entry: Entry<Destination>, arguments handoff: ArgumentHandoff) throws
        -> Destination
    {
        try state.withArguments(handoff) {
            // `build(_:)`'s common case, taken before it: unspecialised here, its test for a built singleton
            // (which a transient never has) would ask the runtime for `Optional<Destination>` on every call.
            if !tracing && graphRef == nil && entry.isPlainTransient && depth < maxDepth && hasStackRoom {
                return try constructPlain(entry)
            }
            return try build(entry)
        }
    }

    /// The general lookup of ``resolve(_:arguments:preparation:)``: with the runtime arguments of
    /// `given`, handed out by `handoff` (nil when there are none), and the caller's preparation.
    @usableFromInline
    mutating func resolveGenerally<Destination, each Argument>(
        _ key: RoutableService<Destination>, arguments: repeat each Argument,
        preparation: ((Destination) throws -> Void)?
    ) throws -> Destination {
        let given = ArgumentList(repeat (each Argument).self)
        guard given.count > 0 else { return try resolveGenerally(key, given: given, preparation: preparation) }
        return try ArgumentHandoff.with(given, repeat each arguments, making: Destination.self) { handoff in
            try resolveGenerally(key, given: given, handoff: handoff, preparation: preparation)
        }
    }

    /// ``resolveGenerally(_:arguments:preparation:)`` once the values are in `handoff` (nil: no arguments).
    mutating func resolveGenerally<Destination>(
        _ key: RoutableService<Destination>, given: ArgumentList, handoff: ArgumentHandoff? = nil,
        preparation: ((Destination) throws -> Void)?
    ) throws -> Destination {
        guard let handoff else {
            guard let preparation else { return try resolve(key) }
            return try build(entry(for: key), input: nil, preparation: preparation)
        }
        let entry = try entry(for: key, taking: given)
        try checkTakesArguments(entry, given: given)
        guard let preparation else { return try build(entry, arguments: handoff) }
        return try build(entry, input: nil, arguments: handoff, preparation: preparation)
    }

    /// The registration of `key` whose argument types are those `given` has: a key may be registered once
    /// per argument list (`init(name:)` and `init(name:age:)`), and a lookup picks by the types it passes.
    /// Falls back to the single lookup's registration, whose mismatch then explains itself.
    mutating func entry<Destination>(
        for key: RoutableService<Destination>, taking given: ArgumentList
    ) throws -> Entry<Destination> {
        // Every candidate is filed under `key.id`, so `Entry.borrow`'s invariant covers each of them; the
        // table keeps them alive for the whole lookup.
        func takesGiven(_ entry: AnyEntry) -> Bool { entry.argumentList?.matches(given) ?? false }
        if let primary = table.primary(key.id, name: key.name), takesGiven(primary) {
            return try Entry<Destination>.borrow(Borrowed(primary)) { $0 }
        }
        let candidates = table.allEntries(for: key.id, name: key.name)
        let matching = candidates.filter(takesGiven)
        if matching.count == 1, let only = matching.first {
            return try Entry<Destination>.borrow(Borrowed(only)) { $0 }
        }
        if matching.count > 1 {
            let defaults = matching.filter(\.isDefault)
            if defaults.count == 1, let chosen = defaults.first {
                return try Entry<Destination>.borrow(Borrowed(chosen)) { $0 }
            }
            throw RouteError.sameArgumentTypes(
                key.keyDescription, given: given, count: matching.count, path: pathTo(key.keyDescription.short))
        }
        let takingArguments = candidates.compactMap(\.argumentTypes)
        if candidates.count > 1 && !takingArguments.isEmpty {
            throw RouteError.noRegistrationTakes(
                key.keyDescription, given: given, registered: takingArguments, path: pathTo(key.keyDescription.short))
        }
        return try entry(for: key)
    }

    func checkTakesArguments(_ entry: AnyEntry, given: ArgumentList) throws {
        guard entry.argumentTypes == nil else { return }
        throw RouteError.takesNoArguments(entry, given: given, path: pathTo(entry.key.short))
    }
}

extension TypeName {
    /// An argument list as it reads in code: `(String, Int)`, `(String)`, `()`.
    static func arguments(_ type: Any.Type) -> String {
        let name = String(describing: type)
        return name.hasPrefix("(") ? name : "(\(name))"
    }
}

/// The types of a runtime-argument list, one by one: those a registration takes, or those a lookup
/// gives. Made from the type parameters without making a tuple type (in unspecialised code that is a
/// locked runtime cache lookup per call), and compared by the identity of each type. Inlinable, so that a
/// lookup that knows its types makes its list from constants.
@usableFromInline
struct ArgumentList: Sendable {
    /// How many arguments.
    @usableFromInline let count: Int

    /// Whether the list of `types` is empty: a constant where they are known, and only a flag otherwise.
    @inlinable @inline(__always)
    static func isEmpty<each Value>(_ types: repeat (each Value).Type) -> Bool {
        for _ in repeat each types { return false }
        return true
    }
    /// The first three types; `Never` where the list is shorter (`count` tells them apart from a real
    /// `Never`), so that two lists compare with no test for a missing type. A registration takes one to
    /// three arguments, so a longer list matches none; a lookup's list may be empty (no arguments). (Every field is a plain word, so that a list is
    /// copied and dropped without reference counting.)
    @usableFromInline let first: Any.Type
    @usableFromInline let second: Any.Type
    @usableFromInline let third: Any.Type
    /// For a list of more than three: the whole list as a tuple type, for messages.
    @usableFromInline let longList: Any.Type?

    @inlinable @inline(__always)
    init<each Value>(_ types: repeat (each Value).Type) {
        var count = 0
        var first: Any.Type = Never.self
        var second: Any.Type = Never.self
        var third: Any.Type = Never.self
        for type in repeat each types {
            count += 1
            if count == 1 {
                first = type
            } else if count == 2 {
                second = type
            } else if count == 3 {
                third = type
            }
        }
        self.count = count
        self.first = first
        self.second = second
        self.third = third
        longList = count > 3 ? Self.tupleType(repeat each types) : nil
    }

    /// The list as one tuple type: a runtime request per call in unspecialised code, so made only for the
    /// rare list no registration takes.
    @usableFromInline @inline(never)
    static func tupleType<each Value>(_: repeat (each Value).Type) -> Any.Type {
        (repeat each Value).self
    }

    /// Whether the two lists have the same types in the same order.
    @inlinable @inline(__always)
    func matches(_ other: ArgumentList) -> Bool {
        count == other.count && count <= 3 && ObjectIdentifier(first) == ObjectIdentifier(other.first)
            && ObjectIdentifier(second) == ObjectIdentifier(other.second)
            && ObjectIdentifier(third) == ObjectIdentifier(other.third)
    }

    /// The types as they read in messages, e.g. `(String, Int)`; built on demand.
    var types: String {
        if let longList { return TypeName.arguments(longList) }
        if count == 1 { return TypeName.arguments(first) }
        let names = [first, second, third].prefix(count).map { String(describing: $0) }
        return "(" + names.joined(separator: ", ") + ")"
    }
}
