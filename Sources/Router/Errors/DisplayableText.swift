extension RouteError {
    /// `text` with every control character written out as an escape such as `\u{1B}`, so that text that
    /// came from input (a path, a key name, an identifier, a search) cannot clear a terminal, set its
    /// title or fake extra lines when a message is printed.
    ///
    /// Every ``RouteError`` applies it to its key, path and hint, and to its reason keeping line breaks
    /// (a validation report lists one problem per line); input interpolated into a reason is escaped
    /// whole where it is interpolated. Applying it twice changes nothing.
    ///
    /// - Parameters:
    ///   - text: The text to show.
    ///   - keepingNewlines: Whether line feeds stay as they are.
    /// - Returns: The text with C0 controls, DEL and C1 controls escaped.
    public static func displayable(_ text: String, keepingNewlines: Bool = false) -> String {
        // Fast path: most messages contain no control character at all. C1 controls are U+0080–U+009F,
        // encoded in UTF-8 as 0xC2 followed by 0x80–0x9F; 0xC2 alone is a cheap, conservative test.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value == 0x0A && keepingNewlines {
                escaped.unicodeScalars.append(scalar)
            } else if value < 0x20 || (0x7F...0x9F).contains(value) {
                escaped += "\\u{" + String(value, radix: 16, uppercase: true) + "}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
