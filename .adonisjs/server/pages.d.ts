import '@adonisjs/inertia/types'

import type { VNodeProps, AllowedComponentProps, ComponentInstance } from 'vue'

type ExtractProps<T> = Omit<
  ComponentInstance<T>['$props'],
  keyof VNodeProps | keyof AllowedComponentProps
>

declare module '@adonisjs/inertia/types' {
  export interface InertiaPages {
    'account/show': ExtractProps<(typeof import('../../inertia/pages/account/show.vue'))['default']>
    'auth/choose_password': ExtractProps<(typeof import('../../inertia/pages/auth/choose_password.vue'))['default']>
    'auth/forgot_password': ExtractProps<(typeof import('../../inertia/pages/auth/forgot_password.vue'))['default']>
    'auth/link_unavailable': ExtractProps<(typeof import('../../inertia/pages/auth/link_unavailable.vue'))['default']>
    'auth/login': ExtractProps<(typeof import('../../inertia/pages/auth/login.vue'))['default']>
    'buyer/destinations/form': ExtractProps<(typeof import('../../inertia/pages/buyer/destinations/form.vue'))['default']>
    'buyer/destinations/index': ExtractProps<(typeof import('../../inertia/pages/buyer/destinations/index.vue'))['default']>
    'buyer/funds': ExtractProps<(typeof import('../../inertia/pages/buyer/funds.vue'))['default']>
    'buyer/leads/index': ExtractProps<(typeof import('../../inertia/pages/buyer/leads/index.vue'))['default']>
    'buyer/rules/edit': ExtractProps<(typeof import('../../inertia/pages/buyer/rules/edit.vue'))['default']>
    'buyer/rules/index': ExtractProps<(typeof import('../../inertia/pages/buyer/rules/index.vue'))['default']>
    'compliance/audit': ExtractProps<(typeof import('../../inertia/pages/compliance/audit.vue'))['default']>
    'compliance/exports': ExtractProps<(typeof import('../../inertia/pages/compliance/exports.vue'))['default']>
    'docs/api': ExtractProps<(typeof import('../../inertia/pages/docs/api.vue'))['default']>
    'errors/not_found': ExtractProps<(typeof import('../../inertia/pages/errors/not_found.vue'))['default']>
    'errors/server_error': ExtractProps<(typeof import('../../inertia/pages/errors/server_error.vue'))['default']>
    'forms/edit': ExtractProps<(typeof import('../../inertia/pages/forms/edit.vue'))['default']>
    'forms/index': ExtractProps<(typeof import('../../inertia/pages/forms/index.vue'))['default']>
    'forms/show': ExtractProps<(typeof import('../../inertia/pages/forms/show.vue'))['default']>
    'integrations/keys': ExtractProps<(typeof import('../../inertia/pages/integrations/keys.vue'))['default']>
    'integrations/webhook': ExtractProps<(typeof import('../../inertia/pages/integrations/webhook.vue'))['default']>
    'integrations/webhooks': ExtractProps<(typeof import('../../inertia/pages/integrations/webhooks.vue'))['default']>
    'invitations/accept': ExtractProps<(typeof import('../../inertia/pages/invitations/accept.vue'))['default']>
    'invitations/unavailable': ExtractProps<(typeof import('../../inertia/pages/invitations/unavailable.vue'))['default']>
    'leads/show': ExtractProps<(typeof import('../../inertia/pages/leads/show.vue'))['default']>
    'money/disputes/index': ExtractProps<(typeof import('../../inertia/pages/money/disputes/index.vue'))['default']>
    'money/disputes/show': ExtractProps<(typeof import('../../inertia/pages/money/disputes/show.vue'))['default']>
    'money/operator/disputes': ExtractProps<(typeof import('../../inertia/pages/money/operator/disputes.vue'))['default']>
    'money/operator/payout': ExtractProps<(typeof import('../../inertia/pages/money/operator/payout.vue'))['default']>
    'money/operator/payouts': ExtractProps<(typeof import('../../inertia/pages/money/operator/payouts.vue'))['default']>
    'money/operator/publisher': ExtractProps<(typeof import('../../inertia/pages/money/operator/publisher.vue'))['default']>
    'money/operator/settlement': ExtractProps<(typeof import('../../inertia/pages/money/operator/settlement.vue'))['default']>
    'money/payout': ExtractProps<(typeof import('../../inertia/pages/money/payout.vue'))['default']>
    'money/settlement': ExtractProps<(typeof import('../../inertia/pages/money/settlement.vue'))['default']>
    'money/statement': ExtractProps<(typeof import('../../inertia/pages/money/statement.vue'))['default']>
    'operator/access_log': ExtractProps<(typeof import('../../inertia/pages/operator/access_log.vue'))['default']>
    'operator/buyers/create': ExtractProps<(typeof import('../../inertia/pages/operator/buyers/create.vue'))['default']>
    'operator/buyers/index': ExtractProps<(typeof import('../../inertia/pages/operator/buyers/index.vue'))['default']>
    'operator/buyers/show': ExtractProps<(typeof import('../../inertia/pages/operator/buyers/show.vue'))['default']>
    'operator/labels/form': ExtractProps<(typeof import('../../inertia/pages/operator/labels/form.vue'))['default']>
    'operator/labels/index': ExtractProps<(typeof import('../../inertia/pages/operator/labels/index.vue'))['default']>
    'operator/labels/plugins': ExtractProps<(typeof import('../../inertia/pages/operator/labels/plugins.vue'))['default']>
    'operator/labels/retention': ExtractProps<(typeof import('../../inertia/pages/operator/labels/retention.vue'))['default']>
    'operator/labels/selling': ExtractProps<(typeof import('../../inertia/pages/operator/labels/selling.vue'))['default']>
    'operator/labels/settlement_rules': ExtractProps<(typeof import('../../inertia/pages/operator/labels/settlement_rules.vue'))['default']>
    'operator/leads/index': ExtractProps<(typeof import('../../inertia/pages/operator/leads/index.vue'))['default']>
    'operator/overview': ExtractProps<(typeof import('../../inertia/pages/operator/overview.vue'))['default']>
    'operator/publishers/index': ExtractProps<(typeof import('../../inertia/pages/operator/publishers/index.vue'))['default']>
    'operator/publishers/new': ExtractProps<(typeof import('../../inertia/pages/operator/publishers/new.vue'))['default']>
    'operator/publishers/quality_rules': ExtractProps<(typeof import('../../inertia/pages/operator/publishers/quality_rules.vue'))['default']>
    'operator/publishers/show': ExtractProps<(typeof import('../../inertia/pages/operator/publishers/show.vue'))['default']>
    'operator/review': ExtractProps<(typeof import('../../inertia/pages/operator/review.vue'))['default']>
    'operator/routing_rules/form': ExtractProps<(typeof import('../../inertia/pages/operator/routing_rules/form.vue'))['default']>
    'operator/routing_rules/index': ExtractProps<(typeof import('../../inertia/pages/operator/routing_rules/index.vue'))['default']>
    'operator/users': ExtractProps<(typeof import('../../inertia/pages/operator/users.vue'))['default']>
    'portal/buyer': ExtractProps<(typeof import('../../inertia/pages/portal/buyer.vue'))['default']>
    'publisher/access_log': ExtractProps<(typeof import('../../inertia/pages/publisher/access_log.vue'))['default']>
    'publisher/home': ExtractProps<(typeof import('../../inertia/pages/publisher/home.vue'))['default']>
    'publisher/leads/index': ExtractProps<(typeof import('../../inertia/pages/publisher/leads/index.vue'))['default']>
    'publisher/posting_spec': ExtractProps<(typeof import('../../inertia/pages/publisher/posting_spec.vue'))['default']>
    'publisher/users': ExtractProps<(typeof import('../../inertia/pages/publisher/users.vue'))['default']>
    'reports/dashboard': ExtractProps<(typeof import('../../inertia/pages/reports/dashboard.vue'))['default']>
    'reports/live': ExtractProps<(typeof import('../../inertia/pages/reports/live.vue'))['default']>
    'uploads/index': ExtractProps<(typeof import('../../inertia/pages/uploads/index.vue'))['default']>
    'uploads/show': ExtractProps<(typeof import('../../inertia/pages/uploads/show.vue'))['default']>
  }
}
