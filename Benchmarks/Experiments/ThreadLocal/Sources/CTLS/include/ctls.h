#include <pthread.h>
extern _Thread_local void *_Nullable ctls_slot;
extern __attribute__((tls_model("initial-exec"))) _Thread_local void *_Nullable ctls_slot_ie;
static inline void *_Nullable ctls_get(void) { return ctls_slot; }
static inline void ctls_set(void *_Nullable p) { ctls_slot = p; }
static inline void *_Nullable ctls_get_ie(void) { return ctls_slot_ie; }
static inline void ctls_set_ie(void *_Nullable p) { ctls_slot_ie = p; }
void *_Nullable ctls_get_call(void);
