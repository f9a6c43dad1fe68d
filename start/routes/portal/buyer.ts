import router from '@adonisjs/core/services/router'
import { portalStack } from '#start/routes/portal/stacks'

/** The buyer portal; its home (/buyer) is its leads, in start/routes/portal/leads.ts. */
router
  .group(() => {})
  .prefix('/buyer')
  .as('buyer')
  .use(portalStack('buyer'))
