import Router
import Testing

// Issue 16 item 5: a ServiceRouter subclass without makeDestination fails naming the key and the path.

protocol Widget: AnyObject {}
final class WidgetImpl: Widget {}
extension RoutableService where Destination == any Widget {
    static var widget: Self { Self(declaring: (any Widget).self) }
}

/// Forgets to override `makeDestination(configuration:resolver:)`.
final class ForgetfulWidgetRouter: ServiceRouter<any Widget, ModuleConfiguration<any Widget>> {}

struct ServiceRouterWithoutFactoryTests {
    @Test func aRouterThatDoesNotOverrideMakeDestinationNamesTheKeyAndThePath() throws {
        let registry = try sealedRegistry { registry in
            try registry.register(router: ForgetfulWidgetRouter.self, for: .widget)
            try registry.register(.car) { r in
                _ = try r.resolve(.widget)
                return CarImpl(engine: V8())
            }
        }
        let direct = #expect(throws: RouteError.self) { try registry.makeDestination(to: .widget) }
        #expect(direct?.code == .factoryFailed)
        #expect(direct?.key == "RoutableService<Widget>")
        #expect(direct?.path == ["Widget"])
        #expect(
            direct?.description
                == "ForgetfulWidgetRouter does not override makeDestination(configuration:resolver:), so it cannot make RoutableService<Widget>. Hint: Override makeDestination(configuration:resolver:) in ForgetfulWidgetRouter and return the destination."
        )
        let nested = #expect(throws: RouteError.self) { try registry.makeDestination(to: .car) }
        #expect(nested?.key == "RoutableService<Widget>")
        #expect(nested?.path == ["Car", "Widget"])
        #expect(
            nested?.description
                == "ForgetfulWidgetRouter does not override makeDestination(configuration:resolver:), so it cannot make RoutableService<Widget> (resolving Car → Widget). Hint: Override makeDestination(configuration:resolver:) in ForgetfulWidgetRouter and return the destination."
        )
    }
}
