import Router
import Synchronization
import Testing

// Issue 35, section 2, written as a team writes a main-actor app target (this target is built with
// `.defaultIsolation(MainActor.self)`): each declaration below is the one-line form the docs show, and
// compiling this file is the first half of each test. Before the change, the path's preparation, the
// injection into a main-actor presenter, the interceptor's read and `route(path:).perform()` did not
// compile; a plain registration of a main-actor class compiled silently.

// MARK: - A book screen whose path parameter sets a main-actor property

final class BookDetailScreen {
    var bookID = 0
}

extension RoutableService<BookDetailScreen> {
    nonisolated static var bookDetail: Self { .init(declaring: Destination.self) }
}

final class CartPage {
    var items = 0
}

extension RoutableService<CartPage> {
    nonisolated static var cartPage: Self { .init(declaring: Destination.self) }
}

struct BookPathsModule: RouteModule {
    func register(in registry: RouteRegistry) throws {
        try registry.registerOnMainActor(.bookDetail) { _ in BookDetailScreen() }
        try registry.registerOnMainActor(path: "books/:id(Int)", to: .bookDetail) { screen, p in
            screen.bookID = try p.int("id")
        }
        try registry.registerOnMainActor(.cartPage) { _ in CartPage() }
        try registry.register(path: "cart", to: .cartPage)
    }
}

// MARK: - The Swinject guide's presenter ⇄ view pair, main-actor classes (mirrors MigratingFromSwinject.md)

@MainActor protocol ProfileView: AnyObject {
    func show(name: String)
}

@MainActor protocol ProfilePresenter: AnyObject {
    func viewDidLoad()
}

extension RoutableService<any ProfileView> {
    nonisolated static var profileView: Self { .init(declaring: Destination.self) }
}

extension RoutableService<any ProfilePresenter> {
    nonisolated static var profilePresenter: Self { .init(declaring: Destination.self) }
}

@MainActor final class ProfileViewController: ProfileView {
    var presenter: (any ProfilePresenter)?
    private(set) var shownName = ""
    func show(name: String) { shownName = name }
    func load() { presenter?.viewDidLoad() }
}

@MainActor final class ProfilePresenterImpl: ProfilePresenter {
    weak var view: (any ProfileView)?
    func viewDidLoad() { view?.show(name: "Ann") }
}

struct ProfileModule: RouteModule {
    func register(in registry: RouteRegistry) throws {
        try registry.registerOnMainActor(.profileView, as: ProfileViewController.self) { _ in
            ProfileViewController()
        }
        .injectingOnMainActor(.profilePresenter) { view, presenter in view.presenter = presenter }
        try registry.registerOnMainActor(.profilePresenter, as: ProfilePresenterImpl.self) { _ in
            ProfilePresenterImpl()
        }
        .injectingOnMainActor(.profileView) { presenter, view in presenter.view = view }
    }
}

// MARK: - An interceptor that reads the sign-in state (mirrors AppsIsolatedToTheMainActor.md)

nonisolated final class SignInState: Sendable {
    private let user = Mutex<String?>(nil)
    var isSignedIn: Bool { user.withLock { $0 != nil } }
    func signIn(_ name: String) { user.withLock { $0 = name } }
}

nonisolated struct SignInNeeded: Error {}

struct SignedInOnly: RouteInterceptor {
    let state: SignInState
    func beforePerform(_ context: RouteContext) throws {
        if context.path == "cart" && !state.isSignedIn { throw SignInNeeded() }
    }
}

// MARK: - A view model marked as made on the main actor

final class FeedViewModel: MainActorDestination {
    var names: [String] = []
}

extension RoutableService<FeedViewModel> {
    nonisolated static var feedModel: Self { .init(declaring: Destination.self) }
}

struct MainActorAppWithoutWorkaroundsTests {
    @Test func aPathParameterSetsAMainActorScreensPropertyInOneRegistration() throws {
        let registry = try RouteRegistry(modules: [BookPathsModule()])
        #expect(try registry.makeDestination(path: "books/3", as: BookDetailScreen.self).bookID == 3)
        let route = try registry.route(path: "books/4", as: BookDetailScreen.self)
        #expect(try route.perform().bookID == 4)
    }

    @Test func thatPathMadeOutsideTheMainActorIsATypedErrorNamingThePattern() async throws {
        let registry = try RouteRegistry(modules: [BookPathsModule()])
        let failure = await Task.detached { () -> RouteError? in
            do {
                _ = try registry.makeDestination(path: "books/3", as: BookDetailScreen.self)
                return nil
            } catch {
                return error as? RouteError
            }
        }.value
        #expect(failure?.code == .mainActorRequired)
        #expect(failure?.key == "\"books/:id(Int)\"")
    }

    @Test func aRouteByPathIsPerformedWithoutNamingItsType() throws {
        let registry = try RouteRegistry(modules: [BookPathsModule()])
        let cart = try registry.route(path: "cart").perform()
        #expect(cart is CartPage)
        let route = try registry.route(path: "books/5")
        let book = try route.perform()
        #expect((book as? BookDetailScreen)?.bookID == 5)
        #expect(route.state == .routed)
    }

    @Test func aMainActorPresenterAndViewAreInjectedIntoEachOther() throws {
        let registry = try RouteRegistry(modules: [ProfileModule()])
        let view = try registry.makeDestination(to: .profileView)
        let controller = try #require(view as? ProfileViewController)
        controller.load()
        #expect(controller.shownName == "Ann")
        #expect((controller.presenter as? ProfilePresenterImpl)?.view === controller)
        // The edges are declared: validation sees both, and the graph draws them.
        #expect(try registry.validate().problems.isEmpty)
        let graph = try registry.dependencyGraph().textTree
        #expect(graph.contains("ProfilePresenter"))
    }

    @Test func theInjectionLookedUpOutsideTheMainActorIsATypedError() async throws {
        let registry = try RouteRegistry(modules: [ProfileModule()])
        let code = await Task.detached { () -> RouteError.Code? in
            do {
                _ = try registry.makeDestination(to: .profileView)
                return nil
            } catch {
                return (error as? RouteError)?.code
            }
        }.value
        #expect(code == .mainActorRequired)
    }

    @Test func anInterceptorReadsANonisolatedSignInState() throws {
        let state = SignInState()
        let registry = try RouteRegistry(modules: [BookPathsModule()])
        registry.addInterceptor(SignedInOnly(state: state))
        #expect(throws: RouteError.self) { try registry.route(path: "cart").perform() }
        state.signIn("ann")
        #expect(try registry.route(path: "cart").perform() is CartPage)
    }

    @Test func aMarkedViewModelRegisteredOnTheMainActorIsMadeThere() throws {
        let registry = RouteRegistry()
        try registry.registerOnMainActor(.feedModel) { _ in FeedViewModel() }
        try registry.seal()
        #expect(try registry.makeDestination(to: .feedModel).names.isEmpty)
    }
}
