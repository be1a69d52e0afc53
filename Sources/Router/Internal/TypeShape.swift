/// What kind of type a metatype is, for advice in messages (never for a lookup's behaviour).
enum TypeShape {
    /// Whether `type` is a value type (a struct, an enum, a tuple) or a function type: a parameter of such a
    /// type is not a service looked up by protocol. A protocol type (`any Engine`) or a class is not.
    ///
    /// Read from the type's metadata record, whose first word is its kind in the Swift ABI (stable on Apple
    /// platforms, the same layout on Linux; `docs/ABI/TypeMetadata.rst` in the Swift repository): 0x200
    /// struct, 0x201 enum, 0x202 optional, 0x301 tuple, 0x302 function. A class's first word is 0 or its
    /// isa pointer, an existential's 0x303: neither is in that list.
    static func isValue(_ type: Any.Type) -> Bool {
        // Every metatype value points at a metadata record, which starts with its kind word.
        let kind = unsafe unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self)
        return [0x200, 0x201, 0x202, 0x301, 0x302].contains(kind)
    }
}
