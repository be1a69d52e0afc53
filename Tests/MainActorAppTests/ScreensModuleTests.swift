import Router
import Testing

// A module with screens, as an app target with default main-actor isolation writes it: the screens and
// their view models are main-actor classes made by main-actor factories, looked up synchronously from
// main-actor code; the session they share is an ordinary Sendable service.

protocol AccountSession: AnyObject, Sendable {
    var user: String { get }
}
extension RoutableService<any AccountSession> {
    nonisolated static var accountSession: Self { .init(declaring: Destination.self) }
}
nonisolated final class SignedInSession: AccountSession {
    let user: String
    init(user: String) { self.user = user }
}

protocol ProfileScreen: AnyObject {
    var title: String { get }
}
extension RoutableService<any ProfileScreen> {
    nonisolated static var profileScreen: Self { .init(declaring: Destination.self) }
}
final class ProfileViewModel: ProfileScreen {
    let session: any AccountSession
    var title: String { "Profile of \(session.user)" }
    init(session: any AccountSession) { self.session = session }
}

struct ScreensModule: RouteModule {
    func register(in registry: RouteRegistry) throws {
        try registry.register(.accountSession) { _ in SignedInSession(user: "ann") }.scope(.singleton)
        try registry.registerOnMainActor(.profileScreen) { r in
            ProfileViewModel(session: try r.resolve(.accountSession))
        }
    }
}

struct ScreensModuleTests {
    @Test func aMainActorScreenIsMadeSynchronouslyFromMainActorCode() throws {
        let registry = try RouteRegistry(modules: [ScreensModule()])
        #expect(try registry.makeDestination(to: .profileScreen).title == "Profile of ann")
    }

    @Test func theSameScreenLookedUpOffTheMainActorIsATypedError() async throws {
        let registry = try RouteRegistry(modules: [ScreensModule()])
        let code = await Task.detached { () -> RouteError.Code? in
            do {
                _ = try registry.makeDestination(to: .profileScreen)
                return nil
            } catch let error as RouteError {
                return error.code
            } catch {
                return nil
            }
        }.value
        #expect(code == .mainActorRequired)
    }
}
