import Router
import Testing

// A `construct…` call the caller made and the router never read is reported with the key and the call's
// name; the lookup itself succeeds (issue 27, part 4).

protocol BadgeModuleConfig: ModuleConfiguration<any Badge> {
    func constructBadge(label: String)
    func constructColour(_ colour: String)
}
protocol Badge: AnyObject { var text: String { get } }
final class BadgeImpl: Badge {
    let text: String
    init(text: String) { self.text = text }
}

final class BadgeConfiguration: ModuleConfiguration<any Badge>, BadgeModuleConfig {
    var label: String?
    var colour: String?
    func constructBadge(label: String) {
        self.label = label
        recordConstruct()
    }
    func constructColour(_ colour: String) {
        self.colour = colour
        recordConstruct()
    }
}

extension RoutableServiceModule where Configuration == any BadgeModuleConfig, Destination == any Badge {
    static var badge: Self { Self(declaring: (any BadgeModuleConfig).self, making: (any Badge).self) }
}

struct UnusedConstructCallTests {
    /// A registry whose badge router reads the label and, when `readsColour`, the colour.
    func registry(readsColour: Bool, reported: EventLog) throws -> RouteRegistry {
        let registry = RouteRegistry()
        registry.errorHandler = { error in reported.record("\(error.code): \(error)") }
        try registry.register(.badge, configuration: BadgeConfiguration.init) { config, _ in
            let label = try config.require(config.label, setBy: "constructBadge(label:)")
            let colour = readsColour ? try config.require(config.colour, setBy: "constructColour(_:)") : "plain"
            return BadgeImpl(text: "\(label) (\(colour))")
        }
        try registry.seal()
        return registry
    }

    @Test func aConstructCallTheRouterNeverReadsIsReportedWithTheKeyAndTheCall() throws {
        let reported = EventLog()
        let badge = try registry(readsColour: false, reported: reported).makeDestination(to: .badge) { config in
            config.constructBadge(label: "new")
            config.constructColour("red")
        }
        #expect(badge.text == "new (plain)")
        #expect(
            reported.events == [
                "unusedConstructCall: The configuration of RoutableServiceModule<BadgeModuleConfig, Badge> received constructColour(_:), which its router never read. Hint: Read it in the factory with require(_:setBy:), or stop making the call."
            ])
    }

    @Test func callsTheRouterReadsAreNotReported() throws {
        let reported = EventLog()
        let registry = try registry(readsColour: true, reported: reported)
        let badge = try registry.makeDestination(to: .badge) { config in
            config.constructBadge(label: "new")
            config.constructColour("red")
        }
        #expect(badge.text == "new (red)")
        #expect(reported.events.isEmpty)
    }

    @Test func aConstructCallUnreadInsideAFactoryIsReportedToo() throws {
        let reported = EventLog()
        let registry = RouteRegistry()
        registry.errorHandler = { error in reported.record("\(error.code)") }
        try registry.register(.badge, configuration: BadgeConfiguration.init) { config, _ in
            BadgeImpl(text: try config.require(config.label, setBy: "constructBadge(label:)"))
        }
        try registry.register(.car) { r in
            let badge = try r.resolve(.badge) { config in
                config.constructBadge(label: "car")
                config.constructColour("blue")
            }
            let car = CarImpl(engine: V8())
            car.log.append(badge.text)
            return car
        }
        try registry.seal()
        _ = try registry.makeDestination(to: .car)
        #expect(reported.events == ["unusedConstructCall"])
    }
}
