import Router
import Synchronization
import Testing

// The Swinject demo app (issue 17), ported: an app configuration and a user service kept for the whole
// app, a networking layer whose error handler and token service need each other, auth and character
// services, a sign-in screen, a home screen and the coordinator that picks between them. The services
// are nonisolated; the view models and the coordinator are main-actor classes, as in an app target.

// MARK: - The backend the services talk to (a stub with the real one's rules)

nonisolated struct Tokens: Equatable, Sendable {
    let access: String
    let refresh: String
}

extension Tokens {
    nonisolated init(_ pair: [String]) throws {
        guard pair.count == 2 else { throw APIError.status(502) }
        self.init(access: pair[0], refresh: pair[1])
    }
}

nonisolated struct APIRequest: Sendable {
    var path: String
    var headers: [String: String] = [:]
    var body: [String: String] = [:]
}

nonisolated struct APIResponse: Sendable {
    let status: Int
    let body: [String]
}

nonisolated enum APIError: Error, Equatable {
    case status(Int)
}

nonisolated protocol Backend: Sendable {
    func send(_ request: APIRequest) -> APIResponse
}

/// Signs in "ann@example.com" with "secret-1", hands out `access-<generation>` tokens, and answers 401
/// to a character request whose token is of an older generation.
final class StubBackend: Backend {
    let apiKey: String
    private let generation = Mutex(1)
    private let log = Mutex<[String]>([])
    init(apiKey: String) { self.apiKey = apiKey }

    var requests: [String] { log.withLock { $0 } }
    func expireAccessTokens() { generation.withLock { $0 += 1 } }

    func send(_ request: APIRequest) -> APIResponse {
        log.withLock { $0.append(request.path) }
        let access = "access-\(generation.withLock { $0 })"
        if request.path != "/characters" && request.headers["X-API-Key"] != apiKey {
            return APIResponse(status: 403, body: [])
        }
        switch request.path {
        case "/login" where request.body == ["email": "ann@example.com", "password": "secret-1"]:
            return APIResponse(status: 200, body: [access, "refresh-ann"])
        case "/refresh" where request.body["refresh"] == "refresh-ann":
            return APIResponse(status: 200, body: [access, "refresh-ann"])
        case "/characters" where request.headers["Authorization"] == "Bearer \(access)":
            return APIResponse(status: 200, body: ["Rick", "Morty", "Summer"])
        case "/characters":
            return APIResponse(status: 401, body: [])
        default:
            return APIResponse(status: 400, body: [])
        }
    }
}

// MARK: - Services

nonisolated protocol AppConfiguration: Sendable {
    var bundleID: String { get }
    var apiKey: String { get }
}
extension RoutableService<any AppConfiguration> {
    nonisolated static var appConfiguration: Self { .init(declaring: Destination.self) }
}

struct BundleConfiguration: AppConfiguration {
    let bundleID: String
    let apiKey: String
}

nonisolated protocol UserService: AnyObject, Sendable {
    var tokens: Tokens? { get }
    func save(_ tokens: Tokens?)
}
extension RoutableService<any UserService> {
    nonisolated static var userService: Self { .init(declaring: Destination.self) }
}

extension UserService {
    nonisolated var isAuthorized: Bool { tokens != nil }
}

final class KeychainUserService: UserService {
    let account: String
    private let stored = Mutex<Tokens?>(nil)
    init(account: String) { self.account = account }
    var tokens: Tokens? { stored.withLock { $0 } }
    func save(_ tokens: Tokens?) { stored.withLock { $0 = tokens } }
}

nonisolated protocol RequestPlugin {
    func prepare(_ request: inout APIRequest)
}

nonisolated struct APIKeyPlugin: RequestPlugin {
    let key: String
    func prepare(_ request: inout APIRequest) { request.headers["X-API-Key"] = key }
}

/// Adds the signed-in user's access token; made anew for each service that needs it.
nonisolated final class TokenPlugin: RequestPlugin {
    let userService: any UserService
    init(userService: any UserService) { self.userService = userService }
    func prepare(_ request: inout APIRequest) {
        request.headers["Authorization"] = "Bearer \(userService.tokens?.access ?? "")"
    }
}
extension RoutableService<TokenPlugin> {
    nonisolated static var tokenPlugin: Self { .init(declaring: Destination.self) }
}

nonisolated protocol TokenService: AnyObject {
    func refresh(_ refreshToken: String) throws -> Tokens
}
extension RoutableService<any TokenService> {
    nonisolated static var tokenService: Self { .init(declaring: Destination.self) }
}

nonisolated protocol ResponseHandler: AnyObject {
    func handle(_ response: APIResponse, retry: () -> APIResponse) throws -> [String]
}
extension RoutableService<any ResponseHandler> {
    nonisolated static var responseHandler: Self { .init(declaring: Destination.self) }
}

/// Refreshes the tokens and retries once on a 401. It needs the token service, which needs a handler for
/// its own requests: the cycle the demo closes with property injection.
nonisolated final class NetworkingHandler: ResponseHandler {
    var tokenService: (any TokenService)?
    var userService: (any UserService)?

    func handle(_ response: APIResponse, retry: () -> APIResponse) throws -> [String] {
        guard response.status == 401, let refresh = userService?.tokens?.refresh, let tokenService else {
            guard response.status < 400 else { throw APIError.status(response.status) }
            return response.body
        }
        userService?.save(try tokenService.refresh(refresh))
        return try handle(retry(), retry: { APIResponse(status: 403, body: []) })
    }
}

/// Sends a request with its plugins, through the handler.
nonisolated struct APIClient {
    let backend: any Backend
    let handler: any ResponseHandler
    let plugins: [any RequestPlugin]

    func call(_ path: String, body: [String: String] = [:]) throws -> [String] {
        let send = {
            var request = APIRequest(path: path, body: body)
            for plugin in plugins { plugin.prepare(&request) }
            return backend.send(request)
        }
        return try handler.handle(send(), retry: send)
    }
}

nonisolated final class RemoteTokenService: TokenService {
    let handler: any ResponseHandler
    private let api: APIClient
    init(backend: any Backend, handler: any ResponseHandler, configuration: any AppConfiguration) {
        self.handler = handler
        api = APIClient(backend: backend, handler: handler, plugins: [APIKeyPlugin(key: configuration.apiKey)])
    }
    func refresh(_ refreshToken: String) throws -> Tokens {
        try Tokens(api.call("/refresh", body: ["refresh": refreshToken]))
    }
}

nonisolated protocol AuthService: AnyObject {
    func login(email: String, password: String) throws -> Tokens
}
extension RoutableService<any AuthService> {
    nonisolated static var authService: Self { .init(declaring: Destination.self) }
}

nonisolated final class RemoteAuthService: AuthService {
    private let api: APIClient
    init(backend: any Backend, handler: any ResponseHandler, configuration: any AppConfiguration) {
        api = APIClient(backend: backend, handler: handler, plugins: [APIKeyPlugin(key: configuration.apiKey)])
    }
    func login(email: String, password: String) throws -> Tokens {
        try Tokens(api.call("/login", body: ["email": email, "password": password]))
    }
}

nonisolated protocol CharactersService: AnyObject {
    func characters() throws -> [String]
}
extension RoutableService<any CharactersService> {
    nonisolated static var charactersService: Self { .init(declaring: Destination.self) }
}

nonisolated final class RemoteCharactersService: CharactersService {
    private let api: APIClient
    init(backend: any Backend, handler: any ResponseHandler, tokenPlugin: TokenPlugin) {
        api = APIClient(backend: backend, handler: handler, plugins: [tokenPlugin])
    }
    func characters() throws -> [String] { try api.call("/characters") }
}

extension RoutableService<any Backend> { nonisolated static var backend: Self { .init(declaring: Destination.self) } }

// MARK: - Screens (main actor)

final class SignInViewModel {
    var email = ""
    var password = ""
    private(set) var signedIn = false
    private let authService: any AuthService
    private let userService: any UserService
    init(authService: any AuthService, userService: any UserService) {
        self.authService = authService
        self.userService = userService
    }

    var isInputValid: Bool { email.count > 5 && password.count > 5 }

    func signIn() throws {
        userService.save(try authService.login(email: email, password: password))
        signedIn = true
    }
}
extension RoutableService<SignInViewModel> {
    nonisolated static var signInScreen: Self { .init(declaring: Destination.self) }
}

final class HomeViewModel {
    private(set) var names: [String] = []
    private let charactersService: any CharactersService
    init(charactersService: any CharactersService) { self.charactersService = charactersService }
    func load() throws { names = try charactersService.characters() }
}
extension RoutableService<HomeViewModel> {
    nonisolated static var homeScreen: Self { .init(declaring: Destination.self) }
}

/// Shows the home screen to a signed-in user and the sign-in screen otherwise, as the demo's
/// `AppCoordinator` does with the container it is given.
final class AppCoordinator {
    enum Screen {
        case signIn(SignInViewModel)
        case home(HomeViewModel)
    }

    private(set) var screen: Screen?
    private let registry: RouteRegistry
    init(registry: RouteRegistry) { self.registry = registry }

    func start() throws {
        if try registry.makeDestination(to: .userService).isAuthorized {
            let home = try registry.makeDestination(to: .homeScreen)
            try home.load()
            screen = .home(home)
        } else {
            screen = .signIn(try registry.makeDestination(to: .signInScreen))
        }
    }

    func signIn(email: String, password: String) throws {
        guard case .signIn(let model) = screen else { return }
        model.email = email
        model.password = password
        try model.signIn()
        try start()
    }
}

// MARK: - Assembly

struct SwinjectDemoAssembly: RouteModule {
    let configuration: BundleConfiguration
    let backend: StubBackend

    func register(in registry: RouteRegistry) throws {
        try registry.register(.appConfiguration) { [configuration] _ in configuration }
        try registry.register(.backend) { [backend] _ in backend }
        try registry.register(.userService) { r in
            KeychainUserService(account: try r.resolve(.appConfiguration).bundleID)
        }.scope(.singleton)
        try registry.register(.tokenPlugin, initializer: TokenPlugin.init)
        try registry.register(.responseHandler, as: NetworkingHandler.self) { _ in NetworkingHandler() }
            .injecting(\.tokenService, .tokenService)
            .injecting(\.userService, .userService)
        try registry.register(.tokenService, initializer: RemoteTokenService.init)
        try registry.register(.authService, initializer: RemoteAuthService.init)
        try registry.register(.charactersService, initializer: RemoteCharactersService.init)
        try registry.registerOnMainActor(.signInScreen) { r in
            SignInViewModel(authService: try r.resolve(.authService), userService: try r.resolve(.userService))
        }
        try registry.registerOnMainActor(.homeScreen) { r in
            HomeViewModel(charactersService: try r.resolve(.charactersService))
        }
    }
}

// MARK: - Tests

struct SwinjectDemoPortTests {
    let backend = StubBackend(apiKey: "dev-key")
    let configuration = BundleConfiguration(bundleID: "com.example.demo", apiKey: "dev-key")
    var assembly: SwinjectDemoAssembly { SwinjectDemoAssembly(configuration: configuration, backend: backend) }

    @Test func theUserServiceIsOneInstanceForTheWholeAppAndKnowsTheBundle() throws {
        let registry = try RouteRegistry(modules: [assembly])
        let first = try registry.makeDestination(to: .userService)
        #expect(first === (try registry.makeDestination(to: .userService)))
        #expect((first as? KeychainUserService)?.account == "com.example.demo")
    }

    @Test func eachServiceGetsATokenPluginOfItsOwn() throws {
        let registry = try RouteRegistry(modules: [assembly])
        #expect(try registry.makeDestination(to: .tokenPlugin) !== registry.makeDestination(to: .tokenPlugin))
    }

    @Test func theHandlerAndTheTokenServiceCloseTheirCycleWithOneInstanceEach() throws {
        let registry = try RouteRegistry(modules: [assembly])
        let tokenService = try #require(try registry.makeDestination(to: .tokenService) as? RemoteTokenService)
        let handler = try #require(tokenService.handler as? NetworkingHandler)
        #expect(handler.tokenService === tokenService)
        #expect(handler.userService === (try registry.makeDestination(to: .userService)))
    }

    @Test func signingInSavesTheTokensAndTheCoordinatorMovesToTheHomeScreen() throws {
        let registry = try RouteRegistry(modules: [assembly])
        let coordinator = AppCoordinator(registry: registry)
        try coordinator.start()
        guard case .signIn(let signIn) = coordinator.screen else {
            Issue.record("a new user starts on the sign-in screen")
            return
        }
        signIn.email = "ann"
        #expect(!signIn.isInputValid)

        try coordinator.signIn(email: "ann@example.com", password: "secret-1")
        #expect(signIn.signedIn)
        #expect(
            try registry.makeDestination(to: .userService).tokens == Tokens(access: "access-1", refresh: "refresh-ann"))
        guard case .home(let home) = coordinator.screen else {
            Issue.record("a signed-in user is shown the home screen")
            return
        }
        #expect(home.names == ["Rick", "Morty", "Summer"])
    }

    @Test func aWrongPasswordIsAnErrorAndTheUserStaysSignedOut() throws {
        let registry = try RouteRegistry(modules: [assembly])
        let signIn = try registry.makeDestination(to: .signInScreen)
        signIn.email = "ann@example.com"
        signIn.password = "wrong-password"
        #expect(throws: APIError.status(400)) { try signIn.signIn() }
        #expect(try !registry.makeDestination(to: .userService).isAuthorized)
    }

    @Test func anExpiredTokenIsRefreshedThroughTheCycleAndTheRequestRetried() throws {
        let registry = try RouteRegistry(modules: [assembly])
        let userService = try registry.makeDestination(to: .userService)
        userService.save(Tokens(access: "access-1", refresh: "refresh-ann"))
        backend.expireAccessTokens()

        let home = try registry.makeDestination(to: .homeScreen)
        try home.load()
        #expect(home.names == ["Rick", "Morty", "Summer"])
        #expect(userService.tokens?.access == "access-2")
        #expect(backend.requests == ["/characters", "/refresh", "/characters"])
    }

    @Test func aChildRegistrySharesTheParentsSingletonsAndOverridesItsBackend() throws {
        let app = try RouteRegistry(modules: [assembly])
        let offline = StubBackend(apiKey: "another-key")
        let preview = RouteRegistry(parent: app)
        try preview.register(.backend) { _ in offline }
        try preview.seal()

        #expect(try preview.makeDestination(to: .userService) === app.makeDestination(to: .userService))
        let signIn = try preview.makeDestination(to: .signInScreen)
        signIn.email = "ann@example.com"
        signIn.password = "secret-1"
        #expect(throws: APIError.status(403)) { try signIn.signIn() }
        #expect(offline.requests == ["/login"])
        #expect(backend.requests.isEmpty)
    }

    @Test func theUserServiceIsBuiltOnceWhenManyThreadsAskAtOnce() async throws {
        let registry = try RouteRegistry(modules: [assembly])
        let services = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 1...8 {
                group.addTask { ObjectIdentifier(try registry.makeDestination(to: .userService)) }
            }
            var made = Set<ObjectIdentifier>()
            for try await service in group { made.insert(service) }
            return made
        }
        #expect(services.count == 1)
    }
}
