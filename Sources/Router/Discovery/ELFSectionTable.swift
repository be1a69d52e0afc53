/// One program header of an ELF image: a segment's type, address and size in memory.
struct ELFSegment: Equatable {
    /// `p_type`; 1 is `PT_LOAD`.
    let type: UInt32
    /// `p_vaddr`.
    let address: UInt64
    /// `p_memsz`.
    let memorySize: UInt64

    var isLoad: Bool { type == 1 }
}

/// The section headers of a 64-bit little-endian ELF file, parsed from its bytes with bounds checks only
/// (no pointer is involved): the loader does not map section headers, so discovery reads them from the
/// image's file to find where its discovery section was loaded.
struct ELFSectionTable {
    /// A section's address (relative to the image's load bias) and size.
    struct Section {
        let address: UInt64
        let size: UInt64
    }

    /// The file's loadable program headers, to compare with those of the image in memory.
    let loadSegments: [ELFSegment]
    private let sections: [(name: String, section: Section)]

    /// Parses the headers `read` returns (`read(offset, count)` gives `count` bytes of the file from
    /// `offset`, or nil). Nil when the file is not a 64-bit little-endian ELF file or is truncated.
    init?(reading read: (_ offset: UInt64, _ count: Int) -> [UInt8]?) {
        guard let header = read(0, 64), header.count == 64,
            header[0] == 0x7F, header[1] == 0x45, header[2] == 0x4C, header[3] == 0x46,  // "\u{7F}ELF"
            header[4] == 2, header[5] == 1  // 64-bit, little-endian
        else { return nil }
        let programOffset = header.u64(at: 32)
        let sectionOffset = header.u64(at: 40)
        let programEntrySize = Int(header.u16(at: 54))
        let programCount = Int(header.u16(at: 56))
        let sectionEntrySize = Int(header.u16(at: 58))
        let sectionCount = Int(header.u16(at: 60))
        let namesIndex = Int(header.u16(at: 62))
        guard programEntrySize >= 56, sectionEntrySize >= 64, sectionCount > 0, namesIndex < sectionCount,
            let programs = read(programOffset, programEntrySize * programCount),
            let table = read(sectionOffset, sectionEntrySize * sectionCount)
        else { return nil }
        var segments: [ELFSegment] = []
        for index in 0..<programCount {
            let at = index * programEntrySize
            let segment = ELFSegment(
                type: programs.u32(at: at), address: programs.u64(at: at + 16), memorySize: programs.u64(at: at + 40))
            if segment.isLoad { segments.append(segment) }
        }
        loadSegments = segments
        // sh_name (4 bytes) at 0, sh_type at 4, sh_flags at 8, sh_addr at 16, sh_offset at 24, sh_size at 32.
        let namesAt = namesIndex * sectionEntrySize
        let namesSize = table.u64(at: namesAt + 32)
        guard namesSize <= 1 << 24, let names = read(table.u64(at: namesAt + 24), Int(namesSize)) else { return nil }
        var found: [(String, Section)] = []
        for index in 0..<sectionCount {
            let at = index * sectionEntrySize
            let type = table.u32(at: at + 4)
            let flags = table.u64(at: at + 8)
            // SHT_NOBITS (8) has no bytes; only SHF_ALLOC (2) sections are in memory.
            guard type != 8, flags & 2 != 0 else { continue }
            let name = names.cString(at: Int(table.u32(at: at)))
            found.append((name, Section(address: table.u64(at: at + 16), size: table.u64(at: at + 32))))
        }
        sections = found
    }

    /// The loaded section called `name`, if the file has one.
    func section(named name: String) -> Section? {
        sections.first { $0.name == name }?.section
    }
}

extension [UInt8] {
    fileprivate func u16(at offset: Int) -> UInt16 {
        UInt16(truncatingIfNeeded: little(at: offset, count: 2))
    }

    fileprivate func u32(at offset: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: little(at: offset, count: 4))
    }

    fileprivate func u64(at offset: Int) -> UInt64 {
        little(at: offset, count: 8)
    }

    /// A little-endian unsigned integer of `count` bytes at `offset`; 0 when it would read past the end.
    private func little(at offset: Int, count: Int) -> UInt64 {
        guard offset >= 0, offset + count <= self.count else { return 0 }
        var value: UInt64 = 0
        for index in (0..<count).reversed() { value = value << 8 | UInt64(self[offset + index]) }
        return value
    }

    /// The NUL-terminated string at `offset`, or "" when the offset is out of range.
    fileprivate func cString(at offset: Int) -> String {
        guard offset >= 0, offset < count else { return "" }
        let end = self[offset...].firstIndex(of: 0) ?? count
        return String(decoding: self[offset..<end], as: UTF8.self)
    }
}
