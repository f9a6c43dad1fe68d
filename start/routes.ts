/*
|--------------------------------------------------------------------------
| Routes
|--------------------------------------------------------------------------
|
| The API (one file per section of the OpenAPI document) and the portals.
|
*/
import '#start/routes/api'
import '#start/routes/webhooks'
import '#start/routes/forms'
import '#start/routes/money'
import '#start/routes/selling'
import '#start/routes/plugins'
import '#start/routes/privacy'
import '#start/routes/portal'
