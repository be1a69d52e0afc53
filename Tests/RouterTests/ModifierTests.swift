import Router
import Testing

protocol Greeting: AnyObject { var text: String { get } }
extension RoutableService where Destination == any Greeting {
    static var greeting: Self { Self(declaring: (any Greeting).self) }
}
final class GreetingImpl: Greeting {
    let text: String
    init(text: String) { self.text = text }
}

struct ArgumentTests {
    func registry() throws -> RouteRegistry {
        try sealedRegistry { registry in
            try registry.register(.greeting, arguments: String.self, Int.self) { _, name, times in
                GreetingImpl(text: Array(repeating: "Hi \(name)!", count: times).joined(separator: " "))
            }
            try registry.register(.engine, arguments: Int.self) { _, horsepower in V8(horsepower: horsepower) }
            try registry.register(.car) { r in CarImpl(engine: try r.resolve(.engine, arguments: 250)) }
        }
    }

    @Test func argumentsReachTheFactoryTyped() throws {
        let registry = try registry()
        #expect(try registry.makeDestination(to: .greeting, arguments: "Ann", 2).text == "Hi Ann! Hi Ann!")
        #expect(try registry.makeDestination(to: .car).engine.horsepower == 250)
    }

    @Test func wrongArgumentTypesNameExpectedAndGiven() throws {
        let error = #expect(throws: RouteError.self) {
            try registry().makeDestination(to: .greeting, arguments: 2, "Ann")
        }
        #expect(error?.code == .argumentMismatch)
        #expect(
            error?.description
                == "RoutableService<Greeting> takes the arguments (String, Int), but was given (Int, String). Hint: Pass arguments of exactly these types, in this order."
        )
    }

    @Test func aWrongArgumentCountIsAMismatch() throws {
        let error = #expect(throws: RouteError.self) {
            try registry().makeDestination(to: .greeting, arguments: "Ann")
        }
        #expect(error?.reason == "RoutableService<Greeting> takes the arguments (String, Int), but was given (String).")
    }

    @Test func missingArgumentsAreAMismatchNotANil() throws {
        let error = #expect(throws: RouteError.self) { try registry().makeDestination(to: .greeting) }
        #expect(
            error?.description
                == "RoutableService<Greeting> takes the arguments (String, Int), but none were given. Hint: Pass them with makeDestination(to:arguments:) or resolve(_:arguments:)."
        )
    }

    @Test func argumentsForAKeyThatTakesNoneAreAMismatch() throws {
        let error = #expect(throws: RouteError.self) {
            try registry().makeDestination(to: .car, arguments: 1)
        }
        #expect(error?.reason == "RoutableService<Car> takes no arguments, but was given (Int).")
    }
}

struct LazyAndProviderTests {
    @Test func lazyBuildsOnFirstReadOnlyOnce() throws {
        let made = Counter()
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in
                made.increment()
                return V8()
            }
        }
        let lazy = try registry.lazy(.engine)
        #expect(made.value == 0)
        #expect(!lazy.isBuilt)
        let first = try lazy.value
        #expect(try lazy.value === first)
        #expect(made.value == 1)
    }

    @Test func providerBuildsOnEachCallWithArguments() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.engine, arguments: Int.self) { _, horsepower in V8(horsepower: horsepower) }
            try registry.register(.wheel) { _ in WheelImpl(position: 0) }
        }
        let wheels = try registry.provider(.wheel)
        #expect(try wheels() !== wheels())
        let engines = try registry.provider(.engine, arguments: Int.self)
        #expect(try engines(300).horsepower == 300)
        #expect(try engines(1).horsepower == 1)
        let error = #expect(throws: RouteError.self) { try registry.provider(.wheel, arguments: Int.self) }
        #expect(error?.code == .argumentMismatch)
    }

    @Test func aLazyEdgeBreaksAnInitializerCycleWithASingleton() throws {
        let calls = Calls()
        let registry = try sealedRegistry { registry in
            try registry.register(.nodeA) { r in
                calls.a.increment()
                return AImpl(b: try r.resolve(.nodeB))
            }.scope(.singleton).dependencies(.initializer(.nodeB))
            try registry.register(.nodeB) { r in
                calls.b.increment()
                return LazyB(a: try r.lazy(.nodeA))
            }.dependencies(.lazy(.nodeA))
        }
        let a = try registry.makeDestination(to: .nodeA)
        let b = try #require(a.b as? LazyB)
        #expect(try b.lazyA.value === a)
        #expect(calls.a.value == 1)
        #expect(calls.b.value == 1)
    }
}

/// B holding its A through a Lazy.
final class LazyB: NodeB {
    let lazyA: Lazy<any NodeA>
    var a: (any NodeA)? {
        get { try? lazyA.value }
        set {}
    }
    var c: (any NodeC)? { nil }
    init(a: Lazy<any NodeA>) { self.lazyA = a }
}
