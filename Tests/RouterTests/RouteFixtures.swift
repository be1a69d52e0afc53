import Router

protocol Screen: AnyObject {
    var title: String { get }
    var bookID: Int? { get set }
}
protocol Titled: AnyObject { var title: String { get } }
protocol Input: AnyObject { var text: String { get set } }
protocol Editor: Titled, Input {}

extension RoutableService where Destination == any Screen {
    static var screen: Self { Self(declaring: (any Screen).self) }
    static var bookScreen: Self { Self(declaring: (any Screen).self).tagged(BookTag.self) }
}
extension RoutableService where Destination == any Titled & Input {
    static var titledInput: Self { Self(declaring: (any Titled & Input).self) }
}
enum BookTag {}

final class ScreenImpl: Screen, Editor {
    let title: String
    var bookID: Int?
    var text = ""
    init(title: String) { self.title = title }
}

/// A screen stack that shows screens at once, or on demand when `manual` is set.
final class ScreenStack: RoutePresenter {
    private(set) var screens: [any Screen] = []
    var manual = false
    var failNext = false
    private(set) var pendingShow: (() -> Void)?

    func present(_ destination: any Screen, completion: @escaping (Result<Void, any Error>) -> Void) {
        if failNext {
            failNext = false
            // A manual stack fails when told to finish, as a presenter that fails later does.
            let fail = { completion(.failure(Boom())) }
            if manual { pendingShow = fail } else { fail() }
            return
        }
        let show = { [self] in
            screens.append(destination)
            completion(.success(()))
        }
        if manual { pendingShow = show } else { show() }
    }

    func finishShowing() {
        let show = pendingShow
        pendingShow = nil
        show?()
    }

    func dismiss(_ destination: any Screen, completion: @escaping (Result<Void, any Error>) -> Void) {
        screens.removeAll { $0 === destination }
        completion(.success(()))
    }
}

/// Records the interceptor calls it sees, and can veto routes.
struct RecordingInterceptor: RouteInterceptor {
    let name: String
    let log: EventLog
    var veto = false

    func beforePerform(_ context: RouteContext) throws {
        log.record("\(name) before \(context)")
        if veto { throw Boom() }
    }
    func afterPerform(_ context: RouteContext) { log.record("\(name) after \(context.action)") }
    func afterSuccess(_ context: RouteContext) { log.record("\(name) success \(context.action)") }
    func afterError(_ context: RouteContext, error: RouteError) { log.record("\(name) error \(error.code)") }
}
