import Router

/// Who is signed in. One session serves the whole app.
public protocol UserSession: AnyObject, Sendable {
    /// The signed-in user's name, nil when signed out.
    var currentUser: String? { get }

    /// Signs `name` in.
    /// - Parameter name: The user's name.
    /// - Returns: False when someone is already signed in; nothing changes then.
    func signIn(_ name: String) -> Bool

    /// Signs the current user out and releases everything held for them (cart, chat).
    /// - Returns: The name of the user who was signed in, nil when nobody was.
    func signOut() -> String?
}

extension RoutableService where Destination == any UserSession {
    /// The app's session.
    public nonisolated static var userSession: Self { Self(declaring: (any UserSession).self) }
}
