import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const OpenapiController = () => import('#controllers/openapi_controller')
const OauthTokensController = () => import('#controllers/oauth_tokens_controller')
const LabelsController = () => import('#controllers/labels_controller')
const PublishersController = () => import('#controllers/publishers_controller')
const QualityRulesController = () => import('#controllers/quality_rules_controller')
const BuyersController = () => import('#controllers/buyers_controller')
const RoutingRulesController = () => import('#controllers/routing_rules_controller')
const ApiKeysController = () => import('#controllers/api_keys_controller')
const OauthClientsController = () => import('#controllers/oauth_clients_controller')
const UsersController = () => import('#controllers/users_controller')
const InvitationResendsController = () => import('#controllers/invitation_resends_controller')
const LeadsController = () => import('#controllers/leads_controller')
const RequestsController = () => import('#controllers/requests_controller')
const UploadsController = () => import('#controllers/uploads_controller')
const AuditLogsController = () => import('#controllers/audit_logs_controller')
const AccessLogsController = () => import('#controllers/access_logs_controller')
const ReportsController = () => import('#controllers/reports_controller')

const uuid = router.matchers.uuid()

router
  .group(() => {
    router.get('openapi.json', [OpenapiController, 'show']).as('openapi')
    router.post('oauth/token', [OauthTokensController, 'store']).as('oauth.token')

    router
      .group(() => {
        router.post('labels', [LabelsController, 'store']).as('labels.store')
        router.get('labels', [LabelsController, 'index']).as('labels.index')
        router.get('labels/:id', [LabelsController, 'show']).where('id', uuid).as('labels.show')
        router
          .patch('labels/:id', [LabelsController, 'update'])
          .where('id', uuid)
          .as('labels.update')

        router.post('publishers', [PublishersController, 'store']).as('publishers.store')
        router.get('publishers', [PublishersController, 'index']).as('publishers.index')
        router
          .get('publishers/:id', [PublishersController, 'show'])
          .where('id', uuid)
          .as('publishers.show')
        router
          .patch('publishers/:id', [PublishersController, 'update'])
          .where('id', uuid)
          .as('publishers.update')
        router
          .get('publishers/:id/quality-rules', [QualityRulesController, 'show'])
          .where('id', uuid)
          .as('quality_rules.show')
        router
          .put('publishers/:id/quality-rules', [QualityRulesController, 'update'])
          .where('id', uuid)
          .as('quality_rules.update')
        router
          .post('publishers/:id/quality-rules/preview', [QualityRulesController, 'preview'])
          .where('id', uuid)
          .as('quality_rules.preview')
        router
          .post('publishers/:id/quality-rules/confirm', [PublishersController, 'confirmRules'])
          .where('id', uuid)
          .as('publishers.confirm_rules')
        router
          .post('publishers/:id/go-live-request', [PublishersController, 'requestGoLive'])
          .where('id', uuid)
          .as('publishers.go_live_request')

        router.post('buyers', [BuyersController, 'store']).as('buyers.store')
        router.get('buyers', [BuyersController, 'index']).as('buyers.index')
        router.get('buyers/:id', [BuyersController, 'show']).where('id', uuid).as('buyers.show')
        router
          .patch('buyers/:id', [BuyersController, 'update'])
          .where('id', uuid)
          .as('buyers.update')

        router.post('routing-rules', [RoutingRulesController, 'store']).as('routing_rules.store')
        router.get('routing-rules', [RoutingRulesController, 'index']).as('routing_rules.index')
        router
          .get('routing-rules/:id', [RoutingRulesController, 'show'])
          .where('id', uuid)
          .as('routing_rules.show')
        router
          .patch('routing-rules/:id', [RoutingRulesController, 'update'])
          .where('id', uuid)
          .as('routing_rules.update')
        router
          .delete('routing-rules/:id', [RoutingRulesController, 'destroy'])
          .where('id', uuid)
          .as('routing_rules.destroy')

        router.post('api-keys', [ApiKeysController, 'store']).as('api_keys.store')
        router.get('api-keys', [ApiKeysController, 'index']).as('api_keys.index')
        router
          .delete('api-keys/:id', [ApiKeysController, 'destroy'])
          .where('id', uuid)
          .as('api_keys.destroy')

        router.post('oauth-clients', [OauthClientsController, 'store']).as('oauth_clients.store')
        router.get('oauth-clients', [OauthClientsController, 'index']).as('oauth_clients.index')
        router
          .delete('oauth-clients/:id', [OauthClientsController, 'destroy'])
          .where('id', uuid)
          .as('oauth_clients.destroy')

        router.post('leads', [LeadsController, 'store']).as('leads.store')
        router.get('leads', [LeadsController, 'index']).as('leads.index')
        router.get('leads/:id', [LeadsController, 'show']).where('id', uuid).as('leads.show')
        router
          .post('leads/:id/review', [LeadsController, 'review'])
          .where('id', uuid)
          .as('leads.review')
        router.post('requests', [RequestsController, 'store']).as('requests.store')
        router
          .get('requests/:id', [RequestsController, 'show'])
          .where('id', uuid)
          .as('requests.show')

        // Uploads (CSV, JSON Lines): the file streams in, validation and acceptance run in the worker.
        router.post('uploads', [UploadsController, 'store']).as('uploads.store')
        router.get('uploads', [UploadsController, 'index']).as('uploads.index')
        router.get('uploads/:id', [UploadsController, 'show']).where('id', uuid).as('uploads.show')
        router
          .get('uploads/:id/rows', [UploadsController, 'rows'])
          .where('id', uuid)
          .as('uploads.rows')
        router
          .post('uploads/:id/accept', [UploadsController, 'accept'])
          .where('id', uuid)
          .as('uploads.accept')

        router.get('audit-logs', [AuditLogsController, 'index']).as('audit_logs.index')
        router.get('access-logs', [AccessLogsController, 'index']).as('access_logs.index')
        router.get('audit-logs/verify', [AuditLogsController, 'verify']).as('audit_logs.verify')
        router.get('audit-logs/proof', [AuditLogsController, 'proof']).as('audit_logs.proof')
        router
          .get('audit-logs/consistency', [AuditLogsController, 'consistency'])
          .as('audit_logs.consistency')
        router
          .get('audit-logs/checkpoints/latest', [AuditLogsController, 'latestCheckpoint'])
          .as('audit_logs.checkpoints.latest')

        // Reports (docs/reports.md): KPIs and time series, JSON or CSV.
        router.get('reports/kpis', [ReportsController, 'kpis']).as('reports.kpis')
        router.get('reports/timeseries', [ReportsController, 'timeseries']).as('reports.timeseries')

        router.post('users', [UsersController, 'store']).as('users.store')
        router.get('users', [UsersController, 'index']).as('users.index')
        router.patch('users/:id', [UsersController, 'update']).where('id', uuid).as('users.update')
        router
          .post('users/:id/invitation', [InvitationResendsController, 'user'])
          .where('id', uuid)
          .as('users.invitation.resend')
        router
          .post('publishers/:id/invitation', [InvitationResendsController, 'publisher'])
          .where('id', uuid)
          .as('publishers.invitation.resend')
      })
      .use([middleware.apiKey(), middleware.rateLimit()])
  })
  .prefix('/v1')
  .as('v1')
