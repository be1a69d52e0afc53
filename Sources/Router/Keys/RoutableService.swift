/// The key for a service looked up by the protocol it serves.
///
/// A protocol becomes routable when you declare it: a static member of the key type, one line a key, in
/// one `nonisolated extension` for all of them:
///
/// ```swift
/// protocol Engine: AnyObject { var horsepower: Int { get } }
///
/// nonisolated extension RoutableService {
///     static var engine: RoutableService<any Engine> { .init(declaring: (any Engine).self) }
/// }
///
/// let engine = try registry.makeDestination(to: .engine)   // any Engine
/// ```
///
/// Only declared protocols have such a member, so a key for an undeclared protocol does not compile:
/// `.gearbox` is no member, and `RoutableService<any Gearbox>()` is unavailable, with a message that
/// shows the declaration. ``init(declaring:)`` is the declaration itself: call it only inside such an
/// extension. `nonisolated` keeps the keys usable from factories in targets whose default isolation is the
/// main actor. A constrained extension, `extension RoutableService<any Engine>` with
/// `nonisolated static var engine: Self { .init(declaring: Destination.self) }`, declares the same key with
/// its name scoped to the protocol. The key's identity is its static `Destination` type, whatever metatype value is passed, so
/// a key can never reach a registration of another type.
public struct RoutableService<Destination>: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline let id: KeyID
    /// The tag type, kept so that messages can name it; naming it on every lookup would be costly.
    @usableFromInline let tag: Any.Type?
    /// The name of a named key, kept for messages (the identity holds only its hash).
    @usableFromInline let name: String?

    /// Declares `destination` routable and makes its key. Call it only inside the declaring extension.
    ///
    /// - Parameter destination: The protocol the key serves, written as `(any Engine).self`. Only its
    ///   static type counts: a subclass metatype passed for a class `Destination` still declares
    ///   `Destination`.
    @inlinable
    public init(declaring destination: Destination.Type) {
        // The static type, never the value: `unsafeDowncast` on the lookup path relies on a key of
        // `Destination` reaching only registrations made for `Destination` (see `Entry.borrow`).
        self.id = KeyID(type: ObjectIdentifier(Destination.self), kind: .service)
        self.tag = nil
        self.name = nil
    }

    /// Unavailable: a key is made once, where its protocol is declared routable, and looked up by its
    /// static member everywhere else.
    @available(
        *, unavailable,
        message:
            "declare the protocol routable in 'extension RoutableService<any P> { nonisolated static var p: Self { .init(declaring: Destination.self) } }', then use the key '.p'"
    )
    public init() {
        self.id = KeyID(type: ObjectIdentifier(Destination.self), kind: .service)
        self.tag = nil
        self.name = nil
    }

    @inlinable
    init(id: KeyID, tag: Any.Type?, name: String? = nil) {
        self.id = id
        self.tag = tag
        self.name = name
    }

    /// The same key narrowed to registrations that carry the tag type `tag`.
    ///
    /// Tags are types, so a misspelt tag does not compile: `enum Diesel {}`, then `.engine.tagged(Diesel.self)`.
    /// - Parameter tag: Any type used as a marker.
    /// - Returns: A key that reaches only the registrations made with the same tag.
    @inlinable
    public func tagged<Tag>(_ tag: Tag.Type) -> Self {
        Self(
            id: KeyID(type: id.type, kind: .service, qualifier: .tag(ObjectIdentifier(tag))),
            tag: tag)
    }

    /// The same key narrowed to registrations made under the string `name` (for migration from Swinject).
    ///
    /// Prefer ``tagged(_:)``: a tag type cannot be misspelt.
    /// - Parameter name: The registration name.
    /// - Returns: A key that reaches only the registrations made with the same name.
    @inlinable
    public func named(_ name: String) -> Self {
        Self(id: KeyID(type: id.type, kind: .service, qualifier: .name(KeyName(name))), tag: nil, name: name)
    }

    /// The key as it reads in messages, for example `RoutableService<any Engine>[tag: Diesel]`.
    public var description: String { keyDescription.full }

    /// The key's parts for messages; a name is kept with its control characters escaped (a line feed in a
    /// name would otherwise start a new line in a report that lists one problem per line).
    @usableFromInline
    var keyDescription: KeyDescription {
        KeyDescription(
            kind: .service, type: Destination.self, qualifier: id.qualifier, tag: tag,
            name: name.map { RouteError.displayable($0) })
    }

    /// Keys are equal when they reach the same registrations.
    /// - Parameters:
    ///   - lhs: A key.
    ///   - rhs: Another key.
    /// - Returns: Whether both keys have the same protocol and qualifier.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id && lhs.name == rhs.name }

    /// Hashes the key's identity.
    /// - Parameter hasher: The hasher to feed.
    @inlinable
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension RoutableService {
    /// Whether `found`, the registration the probe found by this key's hash, is of another name: for a
    /// named key whose hash collides with a registered name. One test of the key's qualifier otherwise.
    @inlinable @inline(__always)
    func isNotNamed(as found: Borrowed<AnyEntry>) -> Bool {
        guard case .name = id.qualifier else { return false }
        return Self.nameDiffers(found, name)
    }

    @usableFromInline
    static func nameDiffers(_ found: Borrowed<AnyEntry>, _ name: String?) -> Bool {
        found.object.key.name != name
    }
}
