import CTLS

#if canImport(Glibc)
    import Glibc
#endif

// What one read of a thread-local pointer costs, for issue 28's top-level question: the engine's
// `pthread_getspecific` against a C `_Thread_local` read through an inline function of a C target (the
// default TLS model, and initial-exec), and a call into C that reads it.
//   swift build -c release --package-path Benchmarks/Experiments/ThreadLocal
//   valgrind --tool=callgrind Benchmarks/Experiments/ThreadLocal/.build/release/TLSBench <mode> N
// with mode pthread | tls | tls-ie | call; per read = (Ir at N2 − Ir at N1) / (N2 − N1).

final class Box {}
let box = Box()
let raw = Unmanaged.passUnretained(box).toOpaque()
nonisolated(unsafe) var key = pthread_key_t()
pthread_key_create(&key, nil)
pthread_setspecific(key, raw)
ctls_set(raw)
ctls_set_ie(raw)

/// Reads the slot `n` times through `read`, summing what it gives so that no read is dropped.
@inline(__always)
func sumOfReads(_ n: Int, _ read: () -> UnsafeMutableRawPointer?) -> Int {
    var sum = 0
    for _ in 0..<n { sum &+= Int(bitPattern: read()) }
    return sum
}

@inline(never) func viaPthread(_ n: Int) -> Int { sumOfReads(n) { pthread_getspecific(key) } }
@inline(never) func viaThreadLocal(_ n: Int) -> Int { sumOfReads(n) { ctls_get() } }
@inline(never) func viaThreadLocalInitialExec(_ n: Int) -> Int { sumOfReads(n) { ctls_get_ie() } }
@inline(never) func viaCall(_ n: Int) -> Int { sumOfReads(n) { ctls_get_call() } }

let arguments = CommandLine.arguments
let count = arguments.count > 2 ? Int(arguments[2]) ?? 0 : 0
switch arguments.count > 1 ? arguments[1] : "" {
case "pthread": print(viaPthread(count))
case "tls": print(viaThreadLocal(count))
case "tls-ie": print(viaThreadLocalInitialExec(count))
case "call": print(viaCall(count))
default: print("usage: TLSBench <pthread|tls|tls-ie|call> N")
}
