// expected-error: 'SwitchableService' is unavailable: choose the key in a switch that returns a RoutableService, and look that key up
// expected-errors: 1
//
// ZIKRouter's switchable service, spelled as before 1.0: a key chosen at run time is a `switch` now.

import Router

protocol Engine: AnyObject {}

extension RoutableService<any Engine> {
    nonisolated static var engine: Self { .init(declaring: Destination.self) }
}

func engine(diesel: Bool) -> SwitchableService<any Engine> {
    fatalError("does not compile")
}
