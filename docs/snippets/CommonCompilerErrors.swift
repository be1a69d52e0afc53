import Router

// What the fixes on the page take for granted; the page's first block declares Engine, Radio and Car.
// (The failing snippets themselves are checked by scripts/check-compile-errors.sh.)
protocol Gearbox: AnyObject {}
final class EngineImpl: Engine {}
final class CarImpl: Car {
    let engine: any Engine
    var radio: (any Radio)?
    init(engine: any Engine) { self.engine = engine }
}

protocol Cart: AnyObject { var owner: String { get } }
protocol CartModuleConfig: ModuleConfiguration<any Cart> {
    func constructCart(owner: String)
}
extension RoutableServiceModule<any CartModuleConfig, any Cart> {
    nonisolated static var cart: Self { .init(declaring: Configuration.self, making: Destination.self) }
}
final class CartConfiguration: ModuleConfiguration<any Cart>, CartModuleConfig {
    var owner: String?
    func constructCart(owner: String) { self.owner = owner }
}
final class CartImpl: Cart {
    let owner: String
    init(owner: String) { self.owner = owner }
}

@MainActor final class ProfileScreen {}
extension RoutableService<ProfileScreen> {
    nonisolated static var profileScreen: Self { .init(declaring: Destination.self) }
}
