// expected-error: 'key' is unavailable: RouteContext.key was text; use leads(to:) for a key, path for a path, or target (.key or .path)
// expected-errors: 1
//
// An interceptor reading the route's key as text, as it was before the context was typed.

import Router

struct Audit: RouteInterceptor {
    func beforePerform(_ context: RouteContext) throws {
        if context.key.contains("Checkout") { print("checkout") }
    }
}
