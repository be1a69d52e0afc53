import Router
import ShopInterfaces

/// What checkout *requires* from payments, declared here, in checkout's own interface. This module
/// cannot see the payments module (the compiler keeps it so); the app wiring adapts a payment provider
/// to this protocol.
public protocol PaymentProcessing: AnyObject, Sendable {
    /// Takes a payment.
    /// - Parameters:
    ///   - amountCents: The amount in cents.
    ///   - customer: Who pays.
    /// - Returns: The outcome.
    func pay(amountCents: Int, customer: String) -> PaymentOutcome
}

/// The outcome of a payment.
public enum PaymentOutcome: Sendable, Equatable {
    /// Paid; the confirmation is the provider's reference.
    case paid(confirmation: String)
    /// Not paid, with the provider's reason.
    case declined(reason: String)
}

/// A placed order.
public struct Receipt: Sendable, Equatable {
    /// The order number, counted per user from 1.
    public let orderNumber: Int
    /// Who bought.
    public let customer: String
    /// The titles bought.
    public let titles: [String]
    /// What was paid, in cents.
    public let totalCents: Int
    /// The payment provider's reference.
    public let confirmation: String

    /// Makes a receipt.
    /// - Parameters:
    ///   - orderNumber: The order number.
    ///   - customer: Who bought.
    ///   - titles: The titles bought.
    ///   - totalCents: What was paid.
    ///   - confirmation: The payment reference.
    public init(orderNumber: Int, customer: String, titles: [String], totalCents: Int, confirmation: String) {
        self.orderNumber = orderNumber
        self.customer = customer
        self.titles = titles
        self.totalCents = totalCents
        self.confirmation = confirmation
    }
}

/// Why an order could not be placed; its description is a sentence for the user.
public struct CheckoutFailure: ShopMessage, Sendable, Equatable {
    /// The message for the user.
    public let description: String

    /// Makes a failure.
    /// - Parameter description: The message for the user.
    public init(_ description: String) {
        self.description = description
    }

    /// Checkout was attempted with nothing in the cart.
    public static let emptyCart = CheckoutFailure("Your cart is empty; search for a book and add it first.")
    /// Checkout was attempted while signed out.
    public static let signedOut = CheckoutFailure("Sign in first: login NAME.")
}

/// The signed-in user's orders.
public protocol OrderHistory: AnyObject, Sendable {
    /// The receipts, oldest first.
    var receipts: [Receipt] { get }

    /// Records a receipt.
    /// - Parameter receipt: The receipt.
    func record(_ receipt: Receipt)
}

/// Turns the signed-in user's cart into an order.
public protocol Checkout: AnyObject, Sendable {
    /// Pays for the cart, records the order and empties the cart.
    /// - Returns: The receipt.
    /// - Throws: ``CheckoutFailure`` when the cart is empty or the payment is declined; `RouteError` when
    ///   payment processing cannot be made.
    func placeOrder() throws -> Receipt
}

extension RoutableService where Destination == any PaymentProcessing {
    /// Payment as checkout needs it.
    public nonisolated static var paymentProcessing: Self { Self(declaring: (any PaymentProcessing).self) }
}

extension RoutableService where Destination == any OrderHistory {
    /// The signed-in user's orders.
    public nonisolated static var orderHistory: Self { Self(declaring: (any OrderHistory).self) }
}

extension RoutableService where Destination == any Checkout {
    /// Checkout for the signed-in user; only a signed-in user can make one.
    public nonisolated static var checkout: Self { Self(declaring: (any Checkout).self) }
}

/// The checkout screen: it places the order when it is made and shows the receipt, modally.
public protocol CheckoutScreen: Screen {
    /// The order's receipt.
    var receipt: Receipt { get }
}

extension RoutableService where Destination == any CheckoutScreen {
    /// Places the signed-in user's order and shows its receipt, modally. Making it fails with a
    /// ``CheckoutFailure`` when the cart is empty or the payment is declined.
    public nonisolated static var checkoutScreen: Self { Self(declaring: (any CheckoutScreen).self) }
}
