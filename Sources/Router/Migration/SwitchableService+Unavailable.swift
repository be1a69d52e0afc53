// ZIKRouter's switchable service, named so that the compiler says how to write it in Swift: a key
// chosen at run time is a `switch` that returns a `RoutableService`, looked up as any other key.

/// Unavailable: a key chosen at run time is a `switch` over `RoutableService` values.
///
/// ```swift
/// func gateway(for method: PaymentMethod) -> RoutableService<any PaymentGateway> {
///     switch method {
///     case .card: .cardGateway
///     case .invoice: .invoiceGateway
///     }
/// }
/// let gateway = try registry.makeDestination(to: gateway(for: method))
/// ```
///
/// A member whose key serves a refining protocol is looked up by its own key in its `case`, and
/// converts to the common protocol as any value does.
@available(
    *, unavailable,
    message: "choose the key in a switch that returns a RoutableService, and look that key up"
)
public struct SwitchableService<Destination> {}
