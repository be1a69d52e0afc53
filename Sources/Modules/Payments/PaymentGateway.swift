import Router

/// What a gateway answers to a charge.
public struct GatewayCharge: Sendable, Equatable {
    /// Whether the money was taken.
    public let approved: Bool
    /// The gateway's reference for the charge, e.g. `TX-1001`; empty when declined.
    public let transactionID: String
    /// Why the charge was declined; empty when approved.
    public let message: String

    /// Makes an answer.
    /// - Parameters:
    ///   - approved: Whether the money was taken.
    ///   - transactionID: The gateway's reference.
    ///   - message: Why the charge was declined.
    public init(approved: Bool, transactionID: String, message: String) {
        self.approved = approved
        self.transactionID = transactionID
        self.message = message
    }
}

/// A card payment gateway, as the payments team ships it: the protocol this module *provides*. Checkout
/// never sees it; the app wiring adapts it to what checkout requires.
public protocol PaymentGateway: AnyObject, Sendable {
    /// Charges an amount to a customer's card on file.
    /// - Parameters:
    ///   - cents: The amount in cents.
    ///   - customer: The customer's name.
    /// - Returns: Whether it was approved, and the transaction reference.
    func charge(cents: Int, customer: String) -> GatewayCharge
}

extension RoutableService where Destination == any PaymentGateway {
    /// The shop's payment gateway.
    public nonisolated static var paymentGateway: Self { Self(declaring: (any PaymentGateway).self) }
}
