#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
    import MachO
#endif

// Every unsafe construct of module discovery is in this file, behind `ImageSections`' safe interface: the
// images loaded in the process and the bytes of one section of each, a library opened with `dlopen`, a
// directory's entries, and a record's accessor turned from an address into a function. The rest of
// discovery (ModuleDiscovery.swift, ELFSectionTable.swift) is safe code over what this file returns.

/// One loaded image (the executable or a shared library) and the bytes of its discovery section.
struct LoadedImage {
    /// The image's file, as the dynamic loader names it (the executable's own path for the executable).
    let path: String
    /// The section's bytes, copied out of memory; empty when the image has no such section.
    let section: [UInt8]
    /// Why the section could not be read, when it could not (the image is then skipped, not guessed at).
    let problem: String?
    /// Whether the image is the executable.
    var isExecutable = false
}

/// The process's loaded images and their sections, libraries opened at run time, and directory listings.
enum ImageSections {
    /// Whether this platform's images can be enumerated: ELF on 64-bit Linux, Mach-O on Darwin.
    static var isSupported: Bool {
        #if os(Linux) && _pointerBitWidth(_64) && _endian(little)
            return true
        #elseif canImport(Darwin)
            return true
        #else
            return false
        #endif
    }

    /// Every image loaded now, in the dynamic loader's order (the executable first, then the libraries in
    /// the order they were loaded), each with the bytes of its section `name`; only the images whose path
    /// `include` accepts are read.
    static func loadedImages(section name: String, including include: (String) -> Bool) -> [LoadedImage] {
        #if os(Linux) && _pointerBitWidth(_64) && _endian(little)
            return elfImages().filter { include($0.path) }.map { image in
                var loaded = image.read(section: name)
                loaded.isExecutable = image.isExecutable
                return loaded
            }
        #elseif canImport(Darwin)
            return machOImages(section: name, including: include)
        #else
            return []
        #endif
    }

    /// Turns a record's accessor address into the function it is.
    ///
    /// Invariant (the caller's, stated where records are read): `address` is the second field of a
    /// `RouteModuleRecord` the compiler placed in the discovery section, so it is the address of a
    /// `@convention(c) () -> UInt` function of a loaded image, relocated by the dynamic loader. Records are
    /// only ever read from a section whose name is reserved for them.
    static func accessor(at address: UInt) -> RouteModuleAccessor? {
        guard address != 0, let pointer = unsafe UnsafeRawPointer(bitPattern: address) else { return nil }
        return unsafe unsafeBitCast(pointer, to: RouteModuleAccessor.self)
    }

    /// Opens the library at `path` with `dlopen` (every symbol bound now, none added to the global scope)
    /// and keeps it loaded for the rest of the process.
    /// - Returns: nil when it loaded, otherwise the dynamic loader's message.
    static func openLibrary(at path: String) -> String? {
        // `dlopen` copies the path; the handle is deliberately never closed: the modules the library made
        // live in the registry, whose code is the library's.
        if unsafe dlopen(path, RTLD_NOW | RTLD_LOCAL) != nil { return nil }
        guard let message = unsafe dlerror() else { return "dlopen failed without a message" }
        // `dlerror` returns a NUL-terminated string owned by the loader, valid until the next dl call.
        return unsafe String(cString: message)
    }

    /// What the file at `path` is, after following symbolic links, when it is not a regular file: "a named
    /// pipe", "a directory" and so on. Nil for a regular file, and for a file that cannot be examined
    /// (`dlopen` then says why it cannot be opened either).
    static func nonRegularKind(at path: String) -> String? {
        var status = stat()
        // `stat` copies the path and writes only into `status`.
        guard unsafe stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return "a named pipe"
        case S_IFDIR: return "a directory"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "a special file"
        }
    }

    /// The names in `directory` (not `.` and `..`), or nil when it cannot be opened.
    static func entries(of directory: String) -> [String]? {
        guard let stream = unsafe opendir(directory) else { return nil }
        defer { _ = unsafe closedir(stream) }
        var names: [String] = []
        while let entry = unsafe readdir(stream) {
            // `d_name` is a NUL-terminated array inside the entry, valid until the next `readdir`.
            let name = unsafe withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                unsafe String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

#if os(Linux) && _pointerBitWidth(_64) && _endian(little)
    /// A loaded ELF image as `dl_iterate_phdr` describes it.
    private struct ELFImage {
        let path: String
        /// What to open to read the section headers, which the loader does not map.
        let file: String
        /// The image's load bias: a section's address in memory is this plus its `sh_addr`.
        let base: UInt
        /// The program headers in memory, to check the file on disk is the one that was loaded.
        let segments: [ELFSegment]
        let isExecutable: Bool

        func read(section name: String) -> LoadedImage {
            guard
                let table = ELFSectionTable(reading: { offset, count in readFile(file, offset: offset, count: count) })
            else { return LoadedImage(path: path, section: [], problem: nil) }
            guard table.loadSegments == segments.filter(\.isLoad) else {
                return LoadedImage(
                    path: path, section: [],
                    problem: "its file on disk is not the one loaded (its program headers differ)")
            }
            guard let section = table.section(named: name) else {
                return LoadedImage(path: path, section: [], problem: nil)
            }
            guard section.size > 0 else { return LoadedImage(path: path, section: [], problem: nil) }
            // The section must lie inside one loaded segment: only then is its memory mapped and readable.
            guard
                segments.contains(where: {
                    $0.isLoad && $0.address <= section.address
                        && section.address + section.size <= $0.address + $0.memorySize
                })
            else {
                return LoadedImage(
                    path: path, section: [], problem: "its section \(name) lies outside the image's loaded segments")
            }
            // Invariant: `base + section.address` up to `section.size` bytes lies in a loaded segment of this
            // image (checked just above against the loader's own program headers), so it is mapped for as
            // long as the image stays loaded, which it does while we copy: nothing unloads images here.
            guard let start = unsafe UnsafeRawPointer(bitPattern: base &+ UInt(section.address)) else {
                return LoadedImage(path: path, section: [], problem: nil)
            }
            let bytes = unsafe [UInt8](UnsafeRawBufferPointer(start: start, count: Int(section.size)))
            return LoadedImage(path: path, section: bytes, problem: nil)
        }
    }

    /// `dl_iterate_phdr`, looked up in the C library (its declaration is not in Swift's Glibc module).
    private typealias IteratePhdr =
        @convention(c) (
            @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Int32, UnsafeMutableRawPointer?
        ) -> Int32

    /// Every loaded image, in the loader's order.
    private func elfImages() -> [ELFImage] {
        guard let symbol = unsafe dlsym(nil, "dl_iterate_phdr") else { return [] }
        // Invariant: the C library's `dl_iterate_phdr` has exactly this C signature.
        let iterate = unsafe unsafeBitCast(symbol, to: IteratePhdr.self)
        var images: [ELFImage] = []
        _ = unsafe withUnsafeMutablePointer(to: &images) { list in
            unsafe iterate(
                { info, _, context in
                    // Invariant: `info` points to a `struct dl_phdr_info` valid during this call; on 64-bit
                    // Linux its first fields are dlpi_addr (8 bytes), dlpi_name (a pointer), dlpi_phdr (a
                    // pointer) and dlpi_phnum (2 bytes), at the offsets read here. `context` is `list`.
                    guard let info = unsafe info, let context = unsafe context else { return 0 }
                    let base = unsafe info.load(as: UInt.self)
                    let namePointer = unsafe info.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self)
                    let headers = unsafe info.load(fromByteOffset: 16, as: UnsafePointer<Elf64_Phdr>?.self)
                    let count = unsafe Int(info.load(fromByteOffset: 24, as: UInt16.self))
                    let name = unsafe namePointer.map { unsafe String(cString: $0) } ?? ""
                    var segments: [ELFSegment] = []
                    if let headers = unsafe headers {
                        for index in 0..<count {
                            let header = unsafe headers[index]
                            segments.append(
                                ELFSegment(
                                    type: header.p_type, address: header.p_vaddr, memorySize: header.p_memsz))
                        }
                    }
                    let list = unsafe context.assumingMemoryBound(to: [ELFImage].self)
                    // The executable is the one image without a name; its file is /proc/self/exe.
                    let isExecutable = unsafe list.pointee.isEmpty && name.isEmpty
                    let path = isExecutable ? executablePath() : name
                    let file = isExecutable ? "/proc/self/exe" : name
                    if !file.isEmpty {
                        unsafe list.pointee.append(
                            ELFImage(
                                path: path, file: file, base: base, segments: segments, isExecutable: isExecutable))
                    }
                    return 0
                }, UnsafeMutableRawPointer(list))
        }
        return images
    }

    /// The executable's path, for messages.
    private func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        // Invariant: readlink writes at most `count - 1` bytes into the buffer it is given.
        let count = unsafe buffer.withUnsafeMutableBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return -1 }
            return unsafe readlink("/proc/self/exe", start, buffer.count - 1)
        }
        guard count > 0 else { return "/proc/self/exe" }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `count` bytes of `file` from `offset`, or nil when they cannot all be read.
    private func readFile(_ file: String, offset: UInt64, count: Int) -> [UInt8]? {
        guard count >= 0, count <= 1 << 24, offset <= UInt64(Int.max) else { return nil }
        let descriptor = unsafe open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let read = unsafe bytes.withUnsafeMutableBytes { buffer in
                // Invariant: the destination is the rest of `bytes`, `count - done` bytes long.
                guard let start = buffer.baseAddress else { return -1 }
                return unsafe pread(descriptor, start + done, count - done, off_t(offset) + off_t(done))
            }
            guard read > 0 else { return nil }
            done += read
        }
        return bytes
    }
#endif

#if canImport(Darwin)
    /// Every image dyld has loaded, with the section `segment,section` of `name` (e.g.
    /// `__DATA_CONST,__router_modules`).
    private func machOImages(section name: String, including include: (String) -> Bool) -> [LoadedImage] {
        let parts = name.split(separator: ",", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return [] }
        var images: [LoadedImage] = []
        for index in 0..<_dyld_image_count() {
            guard let header = unsafe _dyld_get_image_header(index), let cName = unsafe _dyld_get_image_name(index)
            else { continue }
            let path = unsafe String(cString: cName)
            guard include(path) else { continue }
            var size: UInt = 0
            // Invariant: dyld's header of a loaded 64-bit image; `getsectiondata` returns the section's
            // address in that image's memory, `size` bytes long, mapped while the image is loaded.
            let header64 = unsafe UnsafeRawPointer(header).assumingMemoryBound(to: mach_header_64.self)
            guard let data = unsafe getsectiondata(header64, parts[0], parts[1], &size), size > 0 else {
                images.append(LoadedImage(path: path, section: [], problem: nil))
                continue
            }
            let bytes = unsafe [UInt8](UnsafeRawBufferPointer(start: data, count: Int(size)))
            images.append(LoadedImage(path: path, section: bytes, problem: nil, isExecutable: index == 0))
        }
        return images
    }
#endif
