import Router
import Testing

// Issue 16 item 6: an identifier lookup checks the registered type before it builds anything.

private class Vehicle {}
private final class Truck: Vehicle, Engine {
    let horsepower = 500
}

extension RoutableService where Destination == Vehicle {
    fileprivate static var vehicle: Self { Self(declaring: Vehicle.self) }
}

struct IdentifierTypeCheckTests {
    @Test func aWrongTypeFailsWithoutRunningTheFactoryOrPublishingTheSingleton() throws {
        let built = Counter()
        // A V8 that is also a Radio: only the registered type decides, not what the object happens to be.
        final class RadioEngine: Engine, Radio { let horsepower = 1 }
        let registry = try sealedRegistry { registry in
            try registry.register(.engine) { _ in
                built.increment()
                return RadioEngine()
            }.scope(.singleton).identifier("parts/engine")
        }
        let error = #expect(throws: RouteError.self) {
            try registry.makeDestination(identifier: "parts/engine", as: (any Radio).self)
        }
        #expect(error?.code == .destinationTypeMismatch)
        #expect(
            error?.description
                == "The destination for \"parts/engine\" is Engine, which is not Radio. Hint: It is registered as RoutableService<Engine>; ask for the type it makes, Engine."
        )
        #expect(built.value == 0)
        // The singleton is built by the first lookup that may have it, and only once.
        let engine = try registry.makeDestination(identifier: "parts/engine", as: (any Engine).self)
        #expect(try registry.makeDestination(to: .engine) === engine)
        #expect(built.value == 1)
    }

    @Test func theRegisteredTypeASuperclassOrAnyAreAccepted() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(.vehicle) { _ in Truck() }.identifier("vehicle")
            try registry.register(.engine) { _ in V8(horsepower: 7) }.identifier("engine")
        }
        #expect(try registry.makeDestination(identifier: "vehicle", as: Vehicle.self) is Truck)
        #expect(try registry.makeDestination(identifier: "engine", as: Any.self) is V8)
        let subclass = #expect(throws: RouteError.self) {
            try registry.makeDestination(identifier: "vehicle", as: Truck.self)
        }
        #expect(
            subclass?.description
                == "The destination for \"vehicle\" is Vehicle, which is not Truck. Hint: It is registered as RoutableService<Vehicle>; ask for the type it makes, Vehicle."
        )
    }
}
