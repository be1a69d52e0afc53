// expected-error: 'init()' is unavailable: declare the module routable in 'extension RoutableServiceModule<any Config, any P> { nonisolated static var p: Self { .init(declaring: Configuration.self, making: Destination.self) } }', then use the key '.p'
// expected-errors: 1
//
// Making a module key with the generic initializer outside a declaring extension.

import Router

protocol Cart: AnyObject {}
protocol CartModuleConfig: ModuleConfiguration<any Cart> {
    func constructCart(owner: String)
}

let cartKey = RoutableServiceModule<any CartModuleConfig, any Cart>()
