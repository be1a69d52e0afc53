/// The identity of a route key inside a registry: the protocol (or configuration) type, the key kind,
/// and an optional qualifier. Two keys with equal identities reach the same routers.
///
/// It holds no reference (a name is interned to a number), so copying or comparing one is a few
/// machine-word operations and never touches a reference count.
@usableFromInline
struct KeyID: Hashable, Sendable {
    /// Which namespace a key lives in; a service key and a module key for the same type are distinct.
    @usableFromInline
    enum Kind: UInt8, Sendable {
        case service
        case module
    }

    /// What narrows a key to one of several registrations for the same type.
    @usableFromInline
    enum Qualifier: Hashable, Sendable {
        case none
        case tag(ObjectIdentifier)
        case name(KeyName)
    }

    @usableFromInline let type: ObjectIdentifier
    @usableFromInline let kind: Kind
    @usableFromInline let qualifier: Qualifier

    @inlinable
    init(type: ObjectIdentifier, kind: Kind, qualifier: Qualifier = .none) {
        self.type = type
        self.kind = kind
        self.qualifier = qualifier
    }

    /// A cheap, well-mixed hash for the sealed table (no SipHash on the lookup path).
    @inlinable
    var fastHash: Int {
        var bits = UInt(bitPattern: type) &+ UInt(kind.rawValue)
        switch qualifier {
        case .none: break
        case .tag(let tag): bits ^= UInt(bitPattern: tag) &* 0x9E37_79B9
        case .name(let name): bits ^= UInt(truncatingIfNeeded: name.number) &* 0xD6E8_FEB8_6659_FD93
        }
        bits = (bits ^ (bits >> 29)) &* 0xBF58_476D_1CE4_E5B9
        return Int(bitPattern: bits ^ (bits >> 32))
    }
}

/// A key's readable name, built only when a message, report or graph needs it: describing a type the
/// process has not printed before scans the runtime's conformance records, which at start-up would cost
/// seconds for thousands of registrations.
@usableFromInline
struct KeyDescription: Sendable, Hashable {
    let kind: KeyID.Kind
    let type: Any.Type
    let qualifier: KeyID.Qualifier
    /// A tagged service key's tag type, or what a module key makes: a module key has no tag, so one slot
    /// holds either, and a description (kept in every registration and declared dependency) stays the
    /// size it had before module keys named their destination. Named only when the description is read.
    private let tagOrMade: Any.Type?
    /// The name of a named key, as written.
    let name: String?

    /// The tag type of a tagged service key.
    var tag: Any.Type? { kind == .service ? tagOrMade : nil }

    /// What a module key makes (its `type` is the configuration protocol); nil for a service key, whose
    /// `type` is what it makes. Not part of the key's identity, which a module's configuration decides.
    var made: Any.Type? { kind == .module ? tagOrMade : nil }

    init(
        kind: KeyID.Kind, type: Any.Type, qualifier: KeyID.Qualifier, tag: Any.Type?, name: String? = nil,
        made: Any.Type? = nil
    ) {
        self.kind = kind
        self.type = type
        self.qualifier = qualifier
        self.tagOrMade = kind == .module ? made : tag
        self.name = name
    }

    /// The type the key's lookups return: the service's protocol, or the protocol a module makes.
    var destination: Any.Type { made ?? type }

    /// The full key as a user would write it, e.g. `RoutableService<Engine>[tag: Diesel]` or
    /// `RoutableServiceModule<CartModuleConfig, Cart>`.
    var full: String {
        let suffix = TypeName.qualifierSuffix(qualifier, tag: tag, name: name)
        switch kind {
        case .service: return "RoutableService<\(TypeName.of(type))>\(suffix)"
        case .module:
            let made = self.made.map { ", \(TypeName.of($0))" } ?? ""
            return "RoutableServiceModule<\(TypeName.of(type))\(made)>\(suffix)"
        }
    }

    /// The short name used in resolution paths and graph nodes, e.g. `Engine`; a module reads as what it
    /// makes and the configuration it is made through, e.g. `Cart via CartModuleConfig`.
    @usableFromInline
    var short: String {
        let suffix = TypeName.qualifierSuffix(qualifier, tag: tag, name: name)
        guard kind == .module, let made else { return TypeName.short(type) + suffix }
        return "\(TypeName.short(made)) via \(TypeName.short(type))\(suffix)"
    }

    @usableFromInline
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.kind == rhs.kind && ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type)
            && lhs.qualifier == rhs.qualifier && lhs.name == rhs.name
    }

    @usableFromInline
    func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(ObjectIdentifier(type))
        hasher.combine(qualifier)
    }
}

/// Readable type names for messages: `any Engine` reads as `Engine` in a path.
///
/// Through `_typeName(_:qualified:)`, which is what `String(describing:)` prints for a type, without what
/// `String(describing:)` asks first: whether the metatype conforms to `CustomStringConvertible` and two other
/// protocols. For a type the runtime has not seen, each of those is a miss of its conformance cache and a
/// scan of every conformance record in the binary: naming 100 module types at an app's first launch (s14)
/// cost about 1 million instructions each, most of that launch.
enum TypeName {
    static func of(_ type: Any.Type) -> String {
        _typeName(type, qualified: false)
    }

    static func short(_ type: Any.Type) -> String {
        var name = _typeName(type, qualified: false)
        if name.hasPrefix("any ") { name.removeFirst(4) }
        if name.hasPrefix("(any ") && name.hasSuffix(")") {
            name = String(name.dropFirst(5).dropLast())
        }
        return name
    }

    static func qualifierSuffix(_ qualifier: KeyID.Qualifier, tag: Any.Type?, name: String?) -> String {
        switch qualifier {
        case .none: return ""
        case .tag: return "[tag: \(tag.map { String(describing: $0) } ?? "?")]"
        case .name: return "[\"\(name ?? "?")\"]"
        }
    }
}

/// A string key name, as a 64-bit hash of its UTF-8 bytes: making a named key takes no lock and grows no
/// table, and the key stays a plain value that compares in one instruction.
///
/// The hash only finds the slot. The name's text travels beside it (in the key, the dependency and the
/// registration), and identity compares it: a lookup of a named key checks the registration's text
/// (``SealedTable/primaryRef(_:name:)``), and two registered names whose hashes collide (such pairs are
/// found in minutes) are a validation problem, never one key.
@usableFromInline
struct KeyName: Hashable, Sendable {
    @usableFromInline let number: UInt64

    /// The name's hash (FNV-1a, 64 bits).
    @usableFromInline
    init(_ text: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        number = hash
    }
}
