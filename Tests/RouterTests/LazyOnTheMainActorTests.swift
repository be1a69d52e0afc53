import Router
import Testing

/// A registry whose `.profileView` is made on the main actor, counting the factory's runs.
private func profileRegistry(counting made: Counter) throws -> RouteRegistry {
    try sealedRegistry { registry in
        try registry.registerOnMainActor(.profileView) { _ in
            made.increment()
            return ProfileViewImpl(title: "Profile")
        }
    }
}

/// What a read of a `Lazy` gave: "made", or the error's text.
private func outcome(_ read: () throws -> any ProfileView) -> String {
    do {
        _ = try read()
        return "made"
    } catch {
        return "\(error)"
    }
}

private let notOnTheMainActor =
    "RoutableService<ProfileView> is made on the main actor, but was looked up outside it. Hint: Look it up with makeDestination(to:) from main-actor code (from elsewhere: await MainActor.run { … }), or register a nonisolated factory."
private let notOnTheMainActorThroughTheProperty =
    "RoutableService<ProfileView> is made on the main actor, but was looked up outside it. Hint: Read it with try lazy.value() from main-actor code: the value property cannot see its caller's isolation."

/// A main-actor destination that may be handed to other isolation domains (so a `Lazy` of it is Sendable).
@MainActor protocol Toast: AnyObject, Sendable {
    var text: String { get }
}
extension RoutableService<any Toast> {
    nonisolated static var toast: Self { .init(declaring: Destination.self) }
}
@MainActor final class ToastImpl: Toast {
    let text: String
    init(text: String) { self.text = text }
}

/// The code of the error reading `lazy` threw, or nil when it gave a destination.
private func errorCode(reading lazy: Lazy<any Toast>, isolation: isolated (any Actor)? = #isolation) -> RouteError.Code?
{
    do {
        _ = try lazy.value()
        return nil
    } catch {
        return (error as? RouteError)?.code
    }
}

/// Reads a `Lazy` in its own isolation, which is not the main actor.
private actor Elsewhere {
    func code(reading lazy: Lazy<any Toast>) -> RouteError.Code? {
        errorCode(reading: lazy)
    }
}

struct LazyOnTheMainActorTests {
    @MainActor @Test func aMainActorLazyReadWithValueOnTheMainActorIsBuiltThereOnce() throws {
        let made = Counter()
        let registry = try profileRegistry(counting: made)
        let lazy = try registry.lazy(.profileView)
        #expect(!lazy.isBuilt && made.value == 0)
        let view = try lazy.value()
        #expect(view.title == "Profile")
        #expect(lazy.isBuilt)
        #expect(try lazy.value() === view)
        #expect(try lazy.value === view)  // built: the property returns it too
        #expect(made.value == 1)
    }

    @Test func aMainActorLazyReadOffTheMainActorIsATypedErrorAndNothingIsMade() throws {
        let made = Counter()
        let registry = try profileRegistry(counting: made)
        let results = TestLocked<[String]>([])
        finishesOnItsOwnThread {
            do {
                let lazy = try registry.lazy(.profileView)
                let method = outcome { try lazy.value() }
                let property = outcome { try lazy.value }
                results.withLock { $0 = [method, property, "\(lazy.isBuilt)"] }
            } catch {
                results.withLock { $0 = ["\(error)"] }
            }
        }
        #expect(results.withLock { $0 } == [notOnTheMainActor, notOnTheMainActorThroughTheProperty, "false"])
        #expect(made.value == 0)
    }

    @Test func aMainActorLazyReadFromADetachedTaskOrAnotherActorIsATypedErrorThenTheMainActorBuildsIt() async throws {
        let made = Counter()
        let registry = try sealedRegistry { registry in
            try registry.registerOnMainActor(.toast) { _ in
                made.increment()
                return ToastImpl(text: "Saved")
            }
        }
        let lazy = try registry.lazy(.toast)
        #expect(await Task.detached { errorCode(reading: lazy) }.value == .mainActorRequired)
        #expect(await Elsewhere().code(reading: lazy) == .mainActorRequired)
        #expect(made.value == 0 && !lazy.isBuilt)
        // The failures kept nothing: the main actor builds it now, and every read afterwards gets it.
        let text = try await MainActor.run { try lazy.value().text }
        #expect(text == "Saved" && made.value == 1)
        #expect(await Task.detached { errorCode(reading: lazy) }.value == nil)
        #expect(made.value == 1)
    }

    @MainActor @Test func thePropertyCannotSeeTheMainActorOutsideALookup() throws {
        let made = Counter()
        let registry = try profileRegistry(counting: made)
        let lazy = try registry.lazy(.profileView)
        #if canImport(Darwin)
            // On Apple platforms the main thread is the main actor's executor, which the property can see.
            #expect(outcome { try lazy.value } == "made")
        #else
            #expect(outcome { try lazy.value } == notOnTheMainActorThroughTheProperty)
            #expect(made.value == 0)
        #endif
    }

    @MainActor @Test func aLazyReadInsideAMainActorLookupJoinsItWithEitherForm() throws {
        let registry = try sealedRegistry { registry in
            try registry.registerOnMainActor(.profileView.named("inner")) { _ in ProfileViewImpl(title: "Inner") }
            try registry.registerOnMainActor(.profileView) { r in
                let inner = try r.lazy(.profileView.named("inner"))
                // The factory runs inside a main-actor lookup, which a read of either form joins.
                return ProfileViewImpl(title: "\(try inner.value.title) and \(try inner.value().title)")
            }
        }
        #expect(try registry.makeDestination(to: .profileView).title == "Inner and Inner")
    }
}
