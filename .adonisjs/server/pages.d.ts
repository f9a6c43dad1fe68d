import '@adonisjs/inertia/types'

import type { VNodeProps, AllowedComponentProps, ComponentInstance } from 'vue'

type ExtractProps<T> = Omit<
  ComponentInstance<T>['$props'],
  keyof VNodeProps | keyof AllowedComponentProps
>

declare module '@adonisjs/inertia/types' {
  export interface InertiaPages {
    'auth/login': ExtractProps<(typeof import('../../inertia/pages/auth/login.vue'))['default']>
    'docs/api': ExtractProps<(typeof import('../../inertia/pages/docs/api.vue'))['default']>
    'errors/not_found': ExtractProps<(typeof import('../../inertia/pages/errors/not_found.vue'))['default']>
    'errors/server_error': ExtractProps<(typeof import('../../inertia/pages/errors/server_error.vue'))['default']>
    'invitations/accept': ExtractProps<(typeof import('../../inertia/pages/invitations/accept.vue'))['default']>
    'invitations/unavailable': ExtractProps<(typeof import('../../inertia/pages/invitations/unavailable.vue'))['default']>
    'portal/buyer': ExtractProps<(typeof import('../../inertia/pages/portal/buyer.vue'))['default']>
    'portal/compliance': ExtractProps<(typeof import('../../inertia/pages/portal/compliance.vue'))['default']>
    'portal/operator': ExtractProps<(typeof import('../../inertia/pages/portal/operator.vue'))['default']>
    'portal/publisher': ExtractProps<(typeof import('../../inertia/pages/portal/publisher.vue'))['default']>
  }
}
